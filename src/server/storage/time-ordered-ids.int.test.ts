import { sql } from 'kysely';
import { version as uuidVersion } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { databaseKind } from '../testing/test-database.ts';
import { driveDeliveries, recordEvents } from '../testing/webhook-driver.ts';
import { seededRandom, startWebhookReceiver, type WebhookReceiver } from '../testing/webhook-receiver.ts';

/** The Unix milliseconds a version 7 id starts with. */
const millisOf = (id: string) => parseInt(id.replace(/-/g, '').slice(0, 12), 16);

describe(`ids of the delivery log ordered by time (${databaseKind()})`, () => {
  const clock = new ManualClock(Date.now());
  let t: TestGateway;
  let r: WebhookReceiver;

  beforeAll(async () => {
    t = await startTestGateway({ clock, webhooks: { random: seededRandom(5), timeoutMs: 5_000, sweepIntervalMs: 0 } });
    r = await startWebhookReceiver(() => ({ status: 204 }));
  });
  afterAll(async () => {
    await r.close();
    await t.close();
  });

  it('makes version 7 ids of the database clock, each no earlier than the one made before it', async () => {
    const before = Date.now();
    const { rows } = await sql<{ id: string }>`select time_ordered_uuid() as id from generate_series(1, 2000) n order by n`.execute(t.gateway.database.db);
    const after = Date.now();
    expect(new Set(rows.map((r) => r.id)).size).toBe(2000);
    for (const { id } of rows) {
      expect(uuidVersion(id)).toBe(7);
      // The variant of RFC 9562 (binary 10), kept from the random id it is made of.
      expect(id[19]).toMatch(/[89ab]/);
    }
    const millis = rows.map((r) => millisOf(r.id));
    expect(millis[0]).toBeGreaterThanOrEqual(before - 1_000);
    expect(millis.at(-1)).toBeLessThanOrEqual(after + 1_000);
    for (let i = 1; i < millis.length; i++) expect(millis[i]).toBeGreaterThanOrEqual(millis[i - 1]!);
  });

  it('gives deliveries and attempts such ids, while events keep random (version 4) ones: they are the interface’s idempotency keys', async () => {
    const { accountId, token } = await t.newAccount();
    await t.call('POST', '/v2/webhooks', { token, body: { data: [{ url: r.url, event: 'message.add' }] } });
    const events = await recordEvents(t, clock, accountId, [1, 2, 3].map((n) => ({ name: 'message.add', orderingKey: `chat:ids:${n}`, payload: { n } })));
    const db = t.gateway.database.db;
    const ids = (table: 'webhook_deliveries' | 'webhook_attempts') =>
      sql<{ id: string }>`select id::text from ${sql.table(table)} where subscription_id in (select id from webhook_subscriptions where account_id = ${accountId})`.execute(db);
    // Until every attempt is logged: the POSTs arrive before their outcomes are committed.
    await driveDeliveries(t, clock, async () => (await ids('webhook_attempts')).rows.length >= 3);
    const deliveries = (await ids('webhook_deliveries')).rows;
    const attempts = (await ids('webhook_attempts')).rows;
    expect(deliveries).toHaveLength(3);
    expect(attempts).toHaveLength(3);
    for (const { id } of [...deliveries, ...attempts]) expect(uuidVersion(id)).toBe(7);
    for (const event of events) expect(uuidVersion(event.id)).toBe(4);
    for (const q of r.requests) expect(uuidVersion(q.json.meta.idempotency_key)).toBe(4);
  });
});
