import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClaimRequest } from '../../core/webhooks/ports.ts';
import { startTestGateway, type TestGateway } from '../../testing/harness.ts';
import { ManualClock } from '../../testing/manual-clock.ts';
import { databaseKind } from '../../testing/test-database.ts';
import { recordEvents } from '../../testing/webhook-driver.ts';

const url = 'https://crm.example/hooks';

describe(`batches formed by a claim (${databaseKind()})`, () => {
  const clock = new ManualClock(Date.now());
  let t: TestGateway;

  // A delivery loop without slots never claims: these tests claim by hand.
  beforeAll(async () => {
    t = await startTestGateway({ clock, webhooks: { concurrency: 0, sweepIntervalMs: 0 } });
  });
  afterAll(() => t.close());

  const request = (): ClaimRequest => ({ now: clock.now(), leaseSeconds: 30, limit: 10, perEndpoint: 10, inFlight: new Map(), batchLimit: 100, runLength: 16 });

  /** A batching account subscribed to `message.add`, with one event in each of three chats. */
  async function threeChats(): Promise<string[]> {
    const { accountId, token } = await t.newAccount();
    expect((await t.call('POST', '/v2/webhooks', { token, body: { data: [{ url, event: 'message.add' }] } })).statusCode).toBe(201);
    expect((await t.call('PATCH', '/v2/webhooks/settings', { token, body: { batching: true } })).statusCode).toBe(200);
    const events = await recordEvents(t, clock, accountId, ['a', 'b', 'c'].map((chat) => ({ name: 'message.add', orderingKey: `chat:${chat}`, payload: { chat } })));
    return events.map((e) => e.id);
  }

  const batchIds = async (eventIds: string[]) => {
    const { rows } = await sql<{ event_id: string; batch_id: string | null; status: string }>`
      select event_id, batch_id, status from webhook_deliveries where event_id in (${sql.join(eventIds.map((id) => sql`${id}::uuid`))})`.execute(t.gateway.database.db);
    return new Map(rows.map((r) => [r.event_id, r]));
  };

  it('takes the heads of several chats as one POST, each row marked with the batch id the POST is keyed by', async () => {
    await sql`delete from webhook_deliveries`.execute(t.gateway.database.db);
    const events = await threeChats();
    const runs = await t.gateway.store.together((s) => s.webhookDeliveries.claim(request()));
    expect(runs).toHaveLength(1);
    const [work] = runs[0]!;
    expect(work!.items.map((i) => i.eventId).sort()).toEqual([...events].sort());
    expect(events).not.toContain(work!.key);
    const rows = await batchIds(events);
    for (const id of events) expect(rows.get(id)).toMatchObject({ batch_id: work!.key, status: 'sending' });
  });

  // Another process holding rows is another connection: PGlite has one.
  it.skipIf(databaseKind() !== 'postgres')('sends alone, under its event id and in no batch, the one row of a planned batch it could take', async () => {
    await sql`delete from webhook_deliveries`.execute(t.gateway.database.db);
    const events = await threeChats();
    let release!: () => void;
    let held!: () => void;
    const holding = new Promise<void>((resolve) => (held = resolve));
    // Another claim holds two of the three rows while this one takes: `skip locked` leaves it the third.
    const other = t.gateway.database.db.transaction().execute(async (trx) => {
      await sql`select 1 from webhook_deliveries where event_id in (${events[0]!}::uuid, ${events[1]!}::uuid) for update`.execute(trx);
      held();
      await new Promise<void>((resolve) => (release = resolve));
    });
    await holding;
    const runs = await t.gateway.store.together((s) => s.webhookDeliveries.claim(request()));
    release();
    await other;
    expect(runs.map((run) => run.map((w) => ({ key: w.key, events: w.items.map((i) => i.eventId) })))).toEqual([[{ key: events[2], events: [events[2]] }]]);
    const rows = await batchIds(events);
    expect(rows.get(events[2]!)).toMatchObject({ batch_id: null, status: 'sending' });
    expect(rows.get(events[0]!)).toMatchObject({ batch_id: null, status: 'pending' });
    expect(rows.get(events[1]!)).toMatchObject({ batch_id: null, status: 'pending' });
  });
});
