import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newEventRecords } from '../../core/events/record-event.ts';
import { takeStatement } from '../../storage/repositories/webhook-delivery-claims.ts';
import { dueCandidates } from '../../storage/repositories/webhook-lane-heads.ts';
import { startTestGateway, type TestGateway } from '../../testing/harness.ts';
import { ManualClock } from '../../testing/manual-clock.ts';
import { indexesRead, readWhole } from '../../testing/query-plans.ts';
import { databaseKind } from '../../testing/test-database.ts';

/**
 * The claim finds lane heads by a skip scan, one probe per lane, and a run by reading on in the lane. Both
 * are cheap only through the open-lane index, in its order. Autovacuum's ANALYZE takes its sample whenever it
 * likes, often while the queue is empty; a plan made from that sample must still go through the lane index,
 * whatever the backlog is by the time the claim runs.
 */
describe(`claims under statistics taken with an empty queue (${databaseKind()})`, () => {
  const clock = new ManualClock(Date.now());
  let t: TestGateway;

  beforeAll(async () => {
    t = await startTestGateway({ clock, webhooks: { concurrency: 0, sweepIntervalMs: 0 } });
  });
  afterAll(() => t.close());

  it('reads lane heads and runs through the open-lane index, and no table whole', async () => {
    const { accountId, token } = await t.newAccount();
    const res = await t.call('POST', '/v2/webhooks', { token, body: { data: [{ url: 'https://crm.example/hooks', event: 'message.add' }] } });
    expect(res.statusCode).toBe(201);
    const db = t.gateway.database.db;
    const record = (lanes: number, each: number) =>
      t.gateway.store.transaction((tx) =>
        tx.events.insert(
          newEventRecords(
            clock,
            Array.from({ length: lanes * each }, (_, n) => ({ accountId, name: 'message.add', orderingKey: `chat:${n % lanes}`, payload: { n } })),
          ),
        ),
      );
    // The statement that records events queues their deliveries.
    const deliveries = async () => Number((await sql<{ n: string }>`select count(*) as n from webhook_deliveries`.execute(db)).rows[0]!.n);

    // A history of delivered events, and the statistics taken when nothing was open.
    await record(50, 40);
    expect(await deliveries()).toBe(2_000);
    await sql`update webhook_deliveries set status = 'delivered', delivered_at = now()`.execute(db);
    await sql`analyze webhook_deliveries`.execute(db);
    // Then a backlog.
    await record(50, 20);
    expect(await deliveries()).toBe(3_000);

    const { rows } = await sql<{ account_id: string; endpoint: string; lane: string; seq: string }>`
      select account_id, endpoint, lane, seq from webhook_deliveries where status = 'pending' order by lane, seq limit 1`.execute(db);
    const head = rows[0]!;
    const lit = (value: string) => `'${value.replace(/'/g, "''")}'`;
    // The steps of the scan (see `laneHeads`): into the next endpoint, on to the endpoint's next lane, round
    // to its first lanes up to the cursor; and a run.
    const nextEndpoint = `select id from webhook_deliveries w where w.status in ('pending', 'sending')
      and (w.account_id, w.endpoint) > ('00000000-0000-0000-0000-000000000000'::uuid, '')
      order by w.account_id, w.endpoint, w.lane, w.seq limit 1`;
    const sameEndpoint = `w.status in ('pending', 'sending') and w.account_id = ${lit(head.account_id)}::uuid and w.endpoint = ${lit(head.endpoint)}`;
    const nextLane = `select id from webhook_deliveries w where ${sameEndpoint} and w.lane > ${lit(head.lane)}
      order by w.account_id, w.endpoint, w.lane, w.seq limit 1`;
    const wrapped = `select id from webhook_deliveries w where ${sameEndpoint} and w.lane <= ${lit(head.lane)}
      order by w.account_id, w.endpoint, w.lane, w.seq limit 1`;
    const run = `select id from webhook_deliveries w where w.account_id = ${lit(head.account_id)}::uuid and w.endpoint = ${lit(head.endpoint)}
      and w.lane = ${lit(head.lane)} and w.seq > ${head.seq} and w.status in ('pending', 'sending') order by w.seq limit 16`;
    for (const probe of [nextEndpoint, nextLane, wrapped, run]) {
      expect(await indexesRead(db, probe)).toEqual(['webhook_deliveries_open_lane_idx']);
    }

    // The whole statement that finds a claim's candidates, as a claim runs it (with the few heads it takes, a
    // join back to the deliveries by id was planned as a hash join over the whole table).
    const candidates = dueCandidates({ now: clock.now(), perEndpoint: 4, batchLimit: 50, inFlight: new Map(), limit: 4 }, new Map(), true).compile(db);
    expect(await readWhole(db, candidates)).toEqual([]);
    const found = await db.executeQuery<{ id: string }>(candidates);
    expect(found.rows).toHaveLength(4);

    // And the take of what it found, which checks again that each row is its lane's head (as `not exists`,
    // an anti-join read the whole open-lane index per take).
    const take = takeStatement(
      found.rows.map((r) => r.id),
      { now: clock.now(), leaseSeconds: 30 },
    ).compile(db);
    expect(await readWhole(db, take)).toEqual([]);
    expect((await db.executeQuery(take)).rows).toHaveLength(4);
  });
});
