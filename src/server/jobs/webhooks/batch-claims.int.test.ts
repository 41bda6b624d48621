import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClaimedRun, ClaimedWork, ClaimRequest, Settlement } from '../../core/webhooks/ports.ts';
import { followUpBatchKey } from '../../storage/repositories/webhook-claim-plans.ts';
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

  /** One claim, as the delivery loop makes it. */
  const claim = () => t.gateway.store.together((s) => s.webhookDeliveries.claim(request()));
  /** The process that holds the leases died: they run out. */
  const leasesRunOut = () => sql`update webhook_deliveries set lease_until = now() - interval '1 second' where status = 'sending'`.execute(t.gateway.database.db);

  /** The account of the last `backlog`. */
  let accountId = '';

  /** A batching account subscribed to `message.add`, with events in chats: `{a: 3, b: 1}` records a1, a2, a3, b1 (in that order). */
  async function backlog(perChat: Record<string, number>): Promise<Map<string, string>> {
    const account = await t.newAccount();
    accountId = account.accountId;
    const token = account.token;
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
    const runs = await claim();
    expect(runs).toHaveLength(1);
    const [work] = runs[0]!;
    expect(work!.items.map((i) => i.eventId).sort()).toEqual([...events].sort());
    expect(events).not.toContain(work!.key);
    const rows = await batchIds(events);
    for (const id of events) expect(rows.get(id)).toMatchObject({ batch_id: work!.key, status: 'sending' });
  });

  it('keys a lone head by its event, and stores that key, so that it is never sent again in a batch', async () => {
    await sql`delete from webhook_deliveries`.execute(t.gateway.database.db);
    const events = await backlog({ a: 1 });
    const [[work]] = (await claim()) as [ClaimedRun];
    const a1 = events.get('a1')!;
    expect(work.key).toBe(a1);
    expect((await batchIds([a1])).get(a1)).toMatchObject({ batch_id: a1, status: 'sending' });
    // The process died; meanwhile chat b got an event. Taken again, a1 goes alone under its key, b1 apart.
    await recordEvents(t, clock, accountId, [{ name: 'message.add', orderingKey: 'chat:b', payload: { name: 'b1' } }]);
    await leasesRunOut();
    const again = (await claim()).map((run) => run[0]);
    expect(again.find((w) => w.items.some((i) => i.eventId === a1))).toMatchObject({ key: a1, items: [{ eventId: a1 }] });
  });

  // Another process holding rows is another connection: PGlite has one.
  it.skipIf(databaseKind() !== 'postgres')('sends alone, under its event id (which it keeps as its key), the one row of a planned batch it could take', async () => {
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
    const runs = await claim();
    release();
    await other;
    expect(runs.map((run) => run.map((w) => ({ key: w.key, events: w.items.map((i) => i.eventId) })))).toEqual([[{ key: events[2], events: [events[2]] }]]);
    const rows = await batchIds(events);
    expect(rows.get(events[2]!)).toMatchObject({ batch_id: events[2], status: 'sending' });
    expect(rows.get(events[0]!)).toMatchObject({ batch_id: null, status: 'pending' });
    expect(rows.get(events[1]!)).toMatchObject({ batch_id: null, status: 'pending' });
  });

  it("sends the next events of a batch's chats behind it as batches, one event per chat each, keyed by their rows and written nowhere", async () => {
    await sql`delete from webhook_deliveries`.execute(t.gateway.database.db);
    const events = await backlog({ a: 3, b: 2, c: 1 });
    const runs = await claim();
    expect(runs).toHaveLength(1);
    const [head, ...followers] = runs[0]!;
    expect(named(runs[0]!, events)).toEqual([
      { events: ['a1', 'b1', 'c1'], alone: false },
      { events: ['a2', 'b2'], alone: false },
      // Only chat a has a third event: it goes under its own id.
      { events: ['a3'], alone: true },
    ]);
    expect(followers[0]!.key).toBe(followUpBatchKey(followers[0]!.items.map((i) => i.deliveryId)));
    expect(new Set(runs[0]!.map((w) => w.key)).size).toBe(3);
    // The heads are taken under their batch's id; what follows them is held by their lease, untouched.
    expect(runs[0]!.map((w) => w.underHeadLease)).toEqual([false, true, true]);
    const rows = await batchIds([...events.values()]);
    for (const item of head!.items) expect(rows.get(item.eventId)).toMatchObject({ status: 'sending', batch_id: head!.key });
    for (const item of followers.flatMap((w) => w.items)) expect(rows.get(item.eventId)).toMatchObject({ status: 'pending', batch_id: null });
  });

  // Chats that got events after the batch was formed (behind what was read): they must not join the batches
  // already sent, which keep their keys.
  it.each([
    {
      when: 'the heads are taken again after a crash',
      chats: { a: 4, b: 4, c: 3 },
      formed: [['a1', 'b1', 'c1'], ['a2', 'b2', 'c2'], ['a3', 'b3', 'c3'], ['a4', 'b4']],
      meanwhile: [] as string[],
    },
    {
      when: 'after a crash although the chats got more events meanwhile',
      chats: { a: 4, b: 3, c: 1 },
      formed: [['a1', 'b1', 'c1'], ['a2', 'b2'], ['a3', 'b3'], ['a4']],
      meanwhile: ['c2', 'c3', 'b4'],
    },
  ])('forms the same follow-up batches under the same keys when $when', async ({ chats, formed, meanwhile }) => {
    await sql`delete from webhook_deliveries`.execute(t.gateway.database.db);
    const events = await backlog(chats);
    const [before] = await claim();
    expect(named(before!, events).map((w) => w.events)).toEqual(formed);
    // The first follow-up was answered and settled; then the process died, its heads' lease ran out.
    await t.gateway.store.webhookDeliveries.settle([settlement(before![1]!, 'delivered', clock.now())]);
    await recordEvents(t, clock, accountId, meanwhile.map((name) => ({ name: 'message.add', orderingKey: `chat:${name[0]}`, payload: { name } })));
    await leasesRunOut();

    const [after] = await claim();
    expect(after!.map((w) => w.key)).toEqual([before![0]!.key, before![2]!.key, before![3]!.key]);
    expect(after!.map((w) => w.items.map((i) => i.deliveryId))).toEqual([0, 2, 3].map((n) => before![n]!.items.map((i) => i.deliveryId)));
  });

  it('stores the key of a follow-up batch that failed, and retries it as it was formed', async () => {
    await sql`delete from webhook_deliveries`.execute(t.gateway.database.db);
    const events = await backlog({ a: 2, b: 2, c: 1 });
    const [run] = await claim();
    const [head, follower] = run!;
    expect(named(run!, events).map((w) => w.events)).toEqual([['a1', 'b1', 'c1'], ['a2', 'b2']]);
    // The follow-up failed, and is settled before its head, as the delivery loop does.
    await t.gateway.store.transaction((tx) => tx.webhookDeliveries.settle([settlement(follower!, 'retry', clock.now()), settlement(head!, 'delivered', clock.now())]));
    const rows = await batchIds([...events.values()]);
    for (const item of follower!.items) expect(rows.get(item.eventId)).toMatchObject({ status: 'pending', batch_id: follower!.key });

    // Chat c gets another event meanwhile; once the retry is due, the batch goes as it was, without it.
    await recordEvents(t, clock, accountId, [{ name: 'message.add', orderingKey: 'chat:c', payload: { name: 'c2' } }]);
    clock.advance(60_000);
    const retried = (await claim()).flat();
    const again = retried.find((w) => w.key === follower!.key)!;
    expect(again.items.map((i) => i.deliveryId).sort()).toEqual(follower!.items.map((i) => i.deliveryId).sort());
  });
});

/** What the delivery loop records for an attempt's answer. */
function settlement(work: ClaimedWork, outcome: 'delivered' | 'retry', at: Date): Settlement {
  return {
    work,
    at,
    outcome,
    nextAttemptAt: outcome === 'retry' ? new Date(at.getTime() + 5_000) : null,
    statusCode: outcome === 'retry' ? 500 : 200,
    error: outcome === 'retry' ? 'HTTP 500' : null,
    latencyMs: 3,
    disabledReason: null,
  };
}
