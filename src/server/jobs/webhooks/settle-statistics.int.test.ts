import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logAttempts } from '../../storage/repositories/webhook-delivery-claims.ts';
import { startTestGateway, type TestGateway } from '../../testing/harness.ts';
import { ManualClock } from '../../testing/manual-clock.ts';
import { readWhole } from '../../testing/query-plans.ts';
import { databaseKind } from '../../testing/test-database.ts';

/**
 * A settlement logs each attempt of its group, for as long as its subscription still exists. With many
 * subscriptions (one gateway, many accounts), a plan that reads them all for every settlement costs
 * milliseconds where looking up the group's own costs microseconds.
 */
describe(`settling with many subscriptions (${databaseKind()})`, () => {
  const clock = new ManualClock(Date.now());
  let t: TestGateway;

  beforeAll(async () => {
    t = await startTestGateway({ clock, webhooks: { concurrency: 0, sweepIntervalMs: 0 } });
  });
  afterAll(() => t.close());

  it('looks up the subscriptions of the attempts it logs, and reads no table whole', async () => {
    const { accountId } = await t.newAccount();
    const db = t.gateway.database.db;
    const ids = Array.from({ length: 2_000 }, () => randomUUID());
    await sql`
      insert into webhook_subscriptions (id, account_id, url, event, created_at)
      select id, ${accountId}, 'https://crm.example/hooks/' || n, 'message.add', now()
      from unnest(${ids}::uuid[]) with ordinality as s (id, n)`.execute(db);
    await sql`analyze webhook_subscriptions`.execute(db);

    // Twenty attempts, and one whose subscription is gone meanwhile: it leaves nothing to log.
    const attempt = (subscriptionId: string) => ({
      id: randomUUID(),
      subscription_id: subscriptionId,
      idempotency_key: randomUUID(),
      event_name: 'message.add',
      event_ids: [randomUUID()],
      attempted_at: clock.now(),
      status_code: 200,
      latency_ms: 3,
      error: null,
      outcome: 'delivered',
    });
    const attempts = [...ids.slice(0, 20).map(attempt), attempt(randomUUID())];
    const statement = logAttempts(attempts).compile(db);
    expect(await readWhole(db, statement)).toEqual([]);
    await db.executeQuery(statement);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from webhook_attempts`.execute(db);
    expect(rows[0]!.n).toBe(20);
  });
});
