import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClaimRequest } from '../../core/webhooks/ports.ts';
import { startTestGateway, type TestGateway } from '../../testing/harness.ts';
import { ManualClock } from '../../testing/manual-clock.ts';
import { databaseKind } from '../../testing/test-database.ts';
import { NOT_DUE_READ_PER_ENDPOINT, READ_ON_EVERY_MS } from '../../storage/repositories/webhook-lane-heads.ts';
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

  it(`reads at most ${NOT_DUE_READ_PER_ENDPOINT} heads that cannot go at an endpoint while others have work, and goes on from there`, async () => {
    const db = t.gateway.database.db;
    /** An account whose endpoint has `lanes` lanes, one event each; returns the deliveries' ids in the scan's order. */
    const endpointWith = async (url: string, lanes: number) => {
      const { accountId, token } = await t.newAccount();
      expect((await t.call('POST', '/v2/webhooks', { token, body: { data: [{ url, event: 'message.add' }] } })).statusCode).toBe(201);
      await recordEvents(t, clock, accountId, Array.from({ length: lanes }, (_, n) => ({ name: 'message.add', orderingKey: `lane:${n}`, payload: { n } })));
      const { rows } = await sql<{ id: string }>`select id from webhook_deliveries where account_id = ${accountId} order by lane`.execute(db);
      expect(rows).toHaveLength(lanes);
      return { accountId, ids: rows.map((r) => r.id) };
    };
    /** Every head of the account waits an hour for its retry, but `due`. */
    const waitingBut = (accountId: string, due: string) =>
      sql`update webhook_deliveries set attempts = 1, next_attempt_at = ${new Date(clock.now().getTime() + 3_600_000)}
        where account_id = ${accountId} and id <> ${due}`.execute(db);
    const claimed = async () => {
      const runs = await t.gateway.store.together((s) => s.webhookDeliveries.claim(request(1)));
      const ids = runs.flatMap((run) => run.map((w) => w.items[0]!.deliveryId));
      if (ids.length > 0) await sql`update webhook_deliveries set status = 'delivered', lease_until = null where id in (${sql.join(ids.map((id) => sql`${id}::uuid`))})`.execute(db);
      return ids.sort();
    };

    // A failing endpoint whose one due head lies past the first NOT_DUE_READ_PER_ENDPOINT lanes, beside a healthy one.
    const failing = await endpointWith('https://failing.example/hooks', NOT_DUE_READ_PER_ENDPOINT + 72);
    const due = failing.ids[NOT_DUE_READ_PER_ENDPOINT + 20]!;
    await waitingBut(failing.accountId, due);
    const healthy = await endpointWith('https://healthy.example/hooks', 2);
    // The first claim stops reading the failing endpoint after the waiting heads it may read; the next goes on from there.
    expect(await claimed()).toEqual([healthy.ids[0]!]);
    expect(await claimed()).toEqual([due, healthy.ids[1]!].sort());

    // With nothing due elsewhere, a claim reads on past the limit at once.
    const alone = await endpointWith('https://failing-alone.example/hooks', NOT_DUE_READ_PER_ENDPOINT + 72);
    const last = alone.ids.at(-1)!;
    await waitingBut(alone.accountId, last);
    expect(await claimed()).toEqual([last]);
    // Reading on costs a whole round of the failing lanes: not again within a second.
    const later = alone.ids[NOT_DUE_READ_PER_ENDPOINT + 50]!;
    await sql`update webhook_deliveries set next_attempt_at = ${clock.now()} where id = ${later}`.execute(db);
    expect(await claimed()).toEqual([]);
    clock.advance(READ_ON_EVERY_MS);
    expect(await claimed()).toEqual([later]);
  });
});
