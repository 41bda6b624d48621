import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newEventRecords } from '../../core/events/record-event.ts';
import type { ClaimedWork, ClaimRequest, Settlement } from '../../core/webhooks/ports.ts';
import { startTestGateway, type TestGateway } from '../../testing/harness.ts';
import { ManualClock } from '../../testing/manual-clock.ts';
import { databaseKind } from '../../testing/test-database.ts';
import { driveDeliveries, eventually, recordEvents } from '../../testing/webhook-driver.ts';
import { seededRandom, startWebhookReceiver, type WebhookReceiver } from '../../testing/webhook-receiver.ts';

async function subscribe(t: TestGateway, token: string, url: string, event: string): Promise<void> {
  const res = await t.call('POST', '/v2/webhooks', { token, body: { data: [{ url, event }] } });
  expect(res.statusCode).toBe(201);
}

const event = (name: string, chat: string, n: number) => ({ name, orderingKey: `chat:${chat}`, payload: { chat, n } });

async function statuses(t: TestGateway, eventIds: string[]): Promise<{ status: string; leased: boolean }[]> {
  const { rows } = await sql<{ event_id: string; status: string; leased: boolean }>`
    select event_id, status, lease_until is not null as leased from webhook_deliveries
    where event_id in (${sql.join(eventIds.map((id) => sql`${id}::uuid`))})`.execute(t.gateway.database.db);
  const byEvent = new Map(rows.map((r) => [r.event_id, r]));
  return eventIds.map((id) => ({ status: byEvent.get(id)!.status, leased: byEvent.get(id)!.leased }));
}

describe(`runs: a lane's next deliveries claimed with its head (${databaseKind()})`, () => {
  const clock = new ManualClock(Date.now());
  let t: TestGateway;
  const url = 'https://crm.example/hooks';

  // A delivery loop without slots never claims: this test claims by hand.
  beforeAll(async () => {
    t = await startTestGateway({ clock, webhooks: { concurrency: 0, sweepIntervalMs: 0 } });
  });
  afterAll(() => t.close());

  const request = (runLength: number): ClaimRequest => ({
    now: clock.now(),
    leaseSeconds: 30,
    limit: 10,
    perEndpoint: 10,
    inFlight: new Map(),
    batchLimit: 100,
    runLength,
  });

  it("reads the lane in order behind each head, up to the run length, stopping at another subscription; the head's lease holds the run", async () => {
    const { accountId, token } = await t.newAccount();
    // Two subscriptions at one URL share its lanes.
    await subscribe(t, token, url, 'message.add');
    await subscribe(t, token, url, 'message.status_update');
    const a = await recordEvents(t, clock, accountId, [
      event('message.add', 'a', 0),
      event('message.add', 'a', 1),
      event('message.status_update', 'a', 2),
      event('message.add', 'a', 3),
    ]);
    const b = await recordEvents(t, clock, accountId, [0, 1, 2, 3, 4].map((n) => event('message.add', 'b', n)));

    const runs = await t.gateway.store.together((s) => s.webhookDeliveries.claim(request(3)));
    const keys = runs.map((run) => run.map((w) => w.key)).sort((x, y) => (x[0] === a[0]!.id ? -1 : y[0] === a[0]!.id ? 1 : 0));
    expect(keys).toEqual([
      // a2 belongs to the other subscription: the run stops before it, and a3 stays behind it.
      [a[0]!.id, a[1]!.id],
      // The head and three more.
      b.slice(0, 4).map((e) => e.id),
    ]);
    for (const run of runs) {
      expect(run.map((w) => w.underHeadLease)).toEqual(run.map((_, i) => i > 0));
      for (const work of run) {
        expect(work.items).toHaveLength(1);
        expect(work.items[0]!.eventId).toBe(work.key);
        expect(work.eventName).toBe('message.add');
      }
    }
    // Only the head was written: the follower is held by the head's lease, not by one of its own.
    expect(await statuses(t, a.map((e) => e.id))).toEqual([
      { status: 'sending', leased: true },
      { status: 'pending', leased: false },
      { status: 'pending', leased: false },
      { status: 'pending', leased: false },
    ]);

    // Both lanes are held: nothing more to take.
    expect(await t.gateway.store.together((s) => s.webhookDeliveries.claim(request(3)))).toEqual([]);

    // A settled follower does not open its lane; its head's settlement does, at the first follower not settled.
    const bRun = runs.find((run) => run[0].key === b[0]!.id)!;
    const delivered = (work: ClaimedWork): Settlement => ({
      work,
      at: clock.now(),
      outcome: 'delivered',
      nextAttemptAt: null,
      statusCode: 200,
      error: null,
      latencyMs: 1,
      disabledReason: null,
    });
    await t.gateway.store.webhookDeliveries.settle([delivered(bRun[1]!)]);
    expect(await t.gateway.store.together((s) => s.webhookDeliveries.claim(request(3)))).toEqual([]);
    await t.gateway.store.webhookDeliveries.settle([delivered(bRun[0])]);
    expect((await statuses(t, b.map((e) => e.id))).map((x) => x.status)).toEqual(['delivered', 'delivered', 'pending', 'pending', 'pending']);
    const next = await t.gateway.store.together((s) => s.webhookDeliveries.claim(request(3)));
    expect(next.map((run) => run.map((w) => w.key))).toEqual([b.slice(2).map((e) => e.id)]);
  });

  it('takes heads alone with a run length of 0, and a run again once the lease of a crashed one ran out', async () => {
    await sql`delete from webhook_deliveries`.execute(t.gateway.database.db);
    const { accountId, token } = await t.newAccount();
    await subscribe(t, token, url, 'message.add');
    const c = await recordEvents(t, clock, accountId, [0, 1, 2].map((n) => event('message.add', 'c', n)));

    const alone = await t.gateway.store.together((s) => s.webhookDeliveries.claim({ ...request(0), leaseSeconds: 0 }));
    expect(alone.map((run) => run.map((w) => w.key))).toEqual([[c[0]!.id]]);

    // The head's lease (0 s) has run out, as a crashed process's would: the next claim takes it and its run.
    const retaken = await t.gateway.store.together((s) => s.webhookDeliveries.claim(request(5)));
    expect(retaken.map((run) => run.map((w) => w.key))).toEqual([c.map((e) => e.id)]);
  });
});

describe(`runs through the delivery loop (${databaseKind()})`, () => {
  const clock = new ManualClock(Date.now());
  let t: TestGateway;
  let r: WebhookReceiver | undefined;

  beforeAll(async () => {
    t = await startTestGateway({ clock, webhooks: { random: seededRandom(3), timeoutMs: 1_500, sweepIntervalMs: 0 } });
  });
  afterEach(() => r?.close());
  afterAll(() => t.close());

  it('keeps the head leased while its followers are sent, and settles it after them', async () => {
    const { accountId, token } = await t.newAccount();
    // Event 2 gets no answer the first time: the run waits on it until the attempt's time limit.
    r = await startWebhookReceiver((req, previous) => ((req.json.data[0] as { n: number }).n === 2 && previous === 0 ? 'hang' : { status: 200 }));
    await subscribe(t, token, r.url, 'message.add');
    const events = newEventRecords(clock, [0, 1, 2, 3].map((n) => ({ accountId, ...event('message.add', 'h', n) })));
    await t.gateway.store.transaction((tx) => tx.events.insert(events));

    // While event 2 hangs, event 1 is settled, and the head (event 0) still holds the lane.
    const during = await eventually(async () => {
      const s = await statuses(t, events.map((e) => e.id));
      return r!.requests.length === 3 && s[1]!.status === 'delivered' ? s : undefined;
    });
    expect(during).toEqual([
      { status: 'sending', leased: true },
      { status: 'delivered', leased: false },
      { status: 'pending', leased: false },
      { status: 'pending', leased: false },
    ]);
    const claim = { now: clock.now(), leaseSeconds: 30, limit: 10, perEndpoint: 10, inFlight: new Map(), batchLimit: 100, runLength: 16 };
    expect(await t.gateway.store.together((s) => s.webhookDeliveries.claim(claim))).toEqual([]);

    // The time limit ends the run: the head is settled, event 2 waits for its retry (the clock stands still).
    await eventually(async () => ((await statuses(t, events.map((e) => e.id)))[0]!.status === 'delivered' ? true : undefined));
    expect((await statuses(t, events.map((e) => e.id))).map((x) => x.status)).toEqual(['delivered', 'delivered', 'pending', 'pending']);
  });

  it('keeps a run\'s delivered head delivered when a follower disables the subscription', async () => {
    const { accountId, token } = await t.newAccount();
    r = await startWebhookReceiver((req) => ((req.json.data[0] as { n: number }).n === 1 ? { status: 410 } : { status: 200 }));
    await subscribe(t, token, r.url, 'message.add');
    const events = newEventRecords(clock, [0, 1, 2].map((n) => ({ accountId, ...event('message.add', 'g', n) })));
    await t.gateway.store.transaction((tx) => tx.events.insert(events));

    const settled = await eventually(async () => {
      const s = await statuses(t, events.map((e) => e.id));
      return s.every((x) => x.status !== 'pending' && x.status !== 'sending') ? s.map((x) => x.status) : undefined;
    });
    expect(settled).toEqual(['delivered', 'failed', 'failed']);
  });

  it('stops a run at a failure and gives the rest back at once; the lane follows in order once the failed event is delivered', async () => {
    const { accountId, token } = await t.newAccount();
    // Event 2 is refused once; everything else is taken.
    r = await startWebhookReceiver((req, previous) => ((req.json.data[0] as { n: number }).n === 2 && previous === 0 ? { status: 500 } : { status: 200 }));
    await subscribe(t, token, r.url, 'message.add');
    // One commit for all six, so that the first claim takes the head with the other five as its run (events
    // committed one by one could be claimed a few at a time, and the lane would rest between runs).
    const events = newEventRecords(clock, [0, 1, 2, 3, 4, 5].map((n) => ({ accountId, ...event('message.add', 'd', n) })));
    await t.gateway.store.transaction((tx) => tx.events.insert(events));

    // The clock stands still, so the retry of event 2 is not due: the lane waits behind it, and what the
    // run did not send is pending again, not held under a lease until it runs out.
    await eventually(async () => {
      const s = await statuses(t, events.map((e) => e.id));
      return s[1]!.status === 'delivered' && s.every((x) => x.status !== 'sending') ? s : undefined;
    });
    expect(await statuses(t, events.map((e) => e.id))).toEqual([
      { status: 'delivered', leased: false },
      { status: 'delivered', leased: false },
      { status: 'pending', leased: false },
      { status: 'pending', leased: false },
      { status: 'pending', leased: false },
      { status: 'pending', leased: false },
    ]);
    const sent = () => r!.requests.map((q) => `${(q.json.data[0] as { n: number }).n}:${q.status}`);
    expect(sent()).toEqual(['0:200', '1:200', '2:500']);

    await driveDeliveries(t, clock, () => r!.requests.filter((q) => q.status === 200).length === events.length);
    expect(sent()).toEqual(['0:200', '1:200', '2:500', '2:200', '3:200', '4:200', '5:200']);
  });
});
