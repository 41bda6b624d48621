import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClaimedRun, ClaimRequest } from '../../core/webhooks/ports.ts';
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

  /** A batching account subscribed to `message.add`, with events in chats: `{a: 3, b: 1}` records a1, a2, a3, b1 (in that order). */
  async function backlog(perChat: Record<string, number>): Promise<Map<string, string>> {
    const { accountId, token } = await t.newAccount();
    expect((await t.call('POST', '/v2/webhooks', { token, body: { data: [{ url, event: 'message.add' }] } })).statusCode).toBe(201);
    expect((await t.call('PATCH', '/v2/webhooks/settings', { token, body: { batching: true } })).statusCode).toBe(200);
    const names = Object.entries(perChat).flatMap(([chat, n]) => Array.from({ length: n }, (_, i) => `${chat}${i + 1}`));
    const events = await recordEvents(t, clock, accountId, names.map((name) => ({ name: 'message.add', orderingKey: `chat:${name[0]}`, payload: { name } })));
    return new Map(names.map((name, i) => [name, events[i]!.id]));
  }

  /** One event in each of three chats. */
  const threeChats = async () => [...(await backlog({ a: 1, b: 1, c: 1 })).values()];

  /** A claimed run as the names of the events of each POST, and whether the POST is keyed by its single event. */
  const named = (run: ClaimedRun, events: Map<string, string>) => {
    const nameOf = new Map([...events].map(([name, id]) => [id, name]));
    return run.map((w) => ({ events: w.items.map((i) => nameOf.get(i.eventId)).sort(), alone: w.items.length === 1 && w.key === w.items[0]!.eventId }));
  };

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

  it("sends the next events of a batch's chats behind it as batches, one event per chat each, every row marked with its POST's key", async () => {
    await sql`delete from webhook_deliveries`.execute(t.gateway.database.db);
    const events = await backlog({ a: 3, b: 2, c: 1 });
    const runs = await t.gateway.store.together((s) => s.webhookDeliveries.claim(request()));
    expect(runs).toHaveLength(1);
    expect(named(runs[0]!, events)).toEqual([
      { events: ['a1', 'b1', 'c1'], alone: false },
      { events: ['a2', 'b2'], alone: false },
      // Only chat a has a third event: it goes under its own id.
      { events: ['a3'], alone: true },
    ]);
    const keys = runs[0]!.map((w) => w.key);
    expect(new Set(keys).size).toBe(3);
    const rows = await batchIds([...events.values()]);
    for (const work of runs[0]!) {
      for (const item of work.items) {
        expect(rows.get(item.eventId)).toMatchObject({ status: 'sending', batch_id: work.items.length > 1 ? work.key : null });
      }
    }
  });

  it("dissolves the batches of a run's unsent rest when it gives it back", async () => {
    await sql`delete from webhook_deliveries`.execute(t.gateway.database.db);
    const events = await backlog({ a: 2, b: 2 });
    const [run] = await t.gateway.store.together((s) => s.webhookDeliveries.claim(request()));
    expect(named(run!, events).map((w) => w.events)).toEqual([['a1', 'b1'], ['a2', 'b2']]);
    // Say the first POST failed: the second was never sent, and goes back unbatched.
    await t.gateway.store.webhookDeliveries.release(run![1]!.items.map((i) => i.deliveryId));
    const rows = await batchIds([...events.values()]);
    expect(rows.get(events.get('a2')!)).toMatchObject({ status: 'pending', batch_id: null });
    expect(rows.get(events.get('b2')!)).toMatchObject({ status: 'pending', batch_id: null });
    expect(rows.get(events.get('a1')!)).toMatchObject({ status: 'sending', batch_id: run![0]!.key });
  });
});
