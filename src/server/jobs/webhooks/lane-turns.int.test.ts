import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClaimRequest } from '../../core/webhooks/ports.ts';
import { startTestGateway, type TestGateway } from '../../testing/harness.ts';
import { ManualClock } from '../../testing/manual-clock.ts';
import { databaseKind } from '../../testing/test-database.ts';
import { recordEvents } from '../../testing/webhook-driver.ts';

describe(`lanes taking turns at an endpoint (${databaseKind()})`, () => {
  const clock = new ManualClock(Date.now());
  let t: TestGateway;

  // A delivery loop without slots never claims: this test claims by hand.
  beforeAll(async () => {
    t = await startTestGateway({ clock, webhooks: { concurrency: 0, sweepIntervalMs: 0 } });
  });
  afterAll(() => t.close());

  /** One POST at a time per head (no runs behind them), `room` of them at the endpoint. */
  const request = (room: number): ClaimRequest => ({ now: clock.now(), leaseSeconds: 30, limit: 10, perEndpoint: room, inFlight: new Map(), batchLimit: 1, runLength: 0 });

  it('goes on from the lane after the last one taken, and round to the first lanes again, rather than oldest first', async () => {
    const { accountId, token } = await t.newAccount();
    expect((await t.call('POST', '/v2/webhooks', { token, body: { data: [{ url: 'https://crm.example/hooks', event: 'message.add' }] } })).statusCode).toBe(201);
    // Lanes chat:a < chat:b < … < chat:e; a2 and b2 are recorded before c1, d1 and e1.
    const names = ['a1', 'b1', 'a2', 'b2', 'c1', 'd1', 'e1'];
    const events = await recordEvents(t, clock, accountId, names.map((name) => ({ name: 'message.add', orderingKey: `chat:${name[0]}`, payload: { name } })));
    const nameOf = new Map(events.map((e, i) => [e.id, names[i]!]));
    const db = t.gateway.database.db;
    /** Claims with `room` free at the endpoint, and settles what it took as delivered. */
    const claim = async (room: number) => {
      const runs = await t.gateway.store.together((s) => s.webhookDeliveries.claim(request(room)));
      const ids = runs.flatMap((run) => run.flatMap((w) => w.items.map((i) => i.deliveryId)));
      if (ids.length > 0) {
        await sql`update webhook_deliveries set status = 'delivered', lease_until = null where id in (${sql.join(ids.map((id) => sql`${id}::uuid`))})`.execute(db);
      }
      return runs.flatMap((run) => run.flatMap((w) => w.items.map((i) => nameOf.get(i.eventId)))).sort();
    };
    expect(await claim(2)).toEqual(['a1', 'b1']);
    // Oldest first would be a2 and b2; the lanes after b come first.
    expect(await claim(2)).toEqual(['c1', 'd1']);
    // Past e, round to a and b again.
    expect(await claim(3)).toEqual(['a2', 'b2', 'e1']);
    expect(await claim(3)).toEqual([]);
  });
});
