import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyRetention, EVENT_RETENTION_MS } from '../../core/events/retention.ts';
import { startTestGateway, type TestGateway } from '../../testing/harness.ts';
import { ManualClock } from '../../testing/manual-clock.ts';
import { databaseKind } from '../../testing/test-database.ts';
import { eventually, recordEvents } from '../../testing/webhook-driver.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../testing/webhook-receiver.ts';

const DAY = 86_400_000;

describe(`retention of events and the delivery log (${databaseKind()})`, () => {
  const clock = new ManualClock(Date.now());
  let t: TestGateway;
  let r: WebhookReceiver;
  let accountId: string;
  let clientToken: string;

  beforeAll(async () => {
    // The chat "stuck" gets no answer (its POST stays open) until the test answers it.
    r = await startWebhookReceiver((req) => ((req.json.data[0] as { chat: string }).chat === 'stuck' ? 'hang' : { status: 200 }));
    t = await startTestGateway({ clock, webhooks: { sweepIntervalMs: 0, timeoutMs: 120_000 } });
    ({ accountId, token: clientToken } = await t.newAccount());
    expect((await t.call('POST', '/v2/webhooks', { token: clientToken, body: { data: [{ url: r.url, event: 'message.add' }] } })).statusCode).toBe(201);
  });
  afterAll(async () => {
    await r.close();
    await t.close();
  });

  const db = () => t.gateway.database.db;
  const kept = async (ids: string[]) =>
    (await sql<{ id: string }>`select id from events where id = any(${ids}::uuid[]) order by position`.execute(db())).rows.map((row) => row.id);
  const count = async (table: 'events' | 'webhook_deliveries' | 'webhook_attempts') =>
    (await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(db())).rows[0]!.n;
  const add = (chat: string) => ({ name: 'message.add', orderingKey: `chat:${chat}`, payload: { chat } });

  it('deletes events past their retention in batches, but none a delivery still refers to', async () => {
    const old = await recordEvents(t, clock, accountId, [...['a', 'b', 'c', 'd', 'e'].map(add), add('stuck'), add('f')]);
    const stuck = old[5]!;
    // Every old event but the stuck one is delivered; the stuck one's POST is in flight.
    await eventually(() => r.requests.filter((q) => q.status === 200).length === 6 && r.requests.some((q) => q.status === null));
    await eventually(async () => (await count('webhook_attempts')) === 6);

    clock.advance(EVENT_RETENTION_MS + DAY);
    const recent = await recordEvents(t, clock, accountId, [add('g')]);
    await eventually(() => r.requests.filter((q) => q.status === 200).length === 7);

    const pass = await applyRetention({ store: t.gateway.store, clock }, { batchSize: 2 });
    // a to f go, in three batches of two; the stuck event, whose delivery is open, stays.
    expect(pass.events).toBe(6);
    expect(await kept([...old, ...recent].map((e) => e.id))).toEqual([stuck.id, recent[0]!.id]);
    // The log loses the old finished deliveries and their attempts; the open delivery and the recent one stay.
    expect(pass.deliveryLog).toBe(12);
    expect(await count('webhook_deliveries')).toBe(2);
    expect(await count('webhook_attempts')).toBe(1);

    // The open delivery still has its event: answered, it settles as delivered.
    r.answerHanging(200);
    await eventually(async () => {
      const { rows } = await sql<{ status: string }>`select status from webhook_deliveries where event_id = ${stuck.id}`.execute(db());
      return rows[0]?.status === 'delivered' ? true : undefined;
    });
    const after = await applyRetention({ store: t.gateway.store, clock }, { batchSize: 2 });
    expect(after.events).toBe(1);
    expect(await kept([...old, ...recent].map((e) => e.id))).toEqual([recent[0]!.id]);
  });

  it('stops between batches when the gateway is stopping', async () => {
    await recordEvents(t, clock, accountId, ['h', 'i', 'j', 'k'].map(add));
    // Eight answered 200 so far: a to g, and the stuck one once it was answered.
    await eventually(() => r.requests.filter((q) => q.status === 200).length === 12);
    // Answered is not yet settled: outcomes commit behind the POSTs, and a pass must find every delivery finished.
    await eventually(async () => (await sql<{ n: number }>`select count(*)::int as n from webhook_deliveries where status not in ('delivered', 'failed')`.execute(db())).rows[0]!.n === 0);
    clock.advance(EVENT_RETENTION_MS + DAY);
    let batches = 0;
    const pass = await applyRetention({ store: t.gateway.store, clock }, { batchSize: 2, stopping: () => ++batches > 1 });
    // One batch of the log, then no more: the events wait for the next pass.
    expect(pass).toEqual({ deliveryLog: 4, events: 0, uploads: 0, strayUploads: 0 });
    expect(await count('events')).toBe(5);
  });

  it('keeps an event whose finished delivery is still in the log, so that it can be sent again', async () => {
    const [kept] = await recordEvents(t, clock, accountId, [add('again')]);
    await eventually(() => r.requests.some((q) => q.json.meta.idempotency_key === kept!.id && q.status === 200));
    clock.advance(EVENT_RETENTION_MS + DAY);
    // The events' pass alone, as when the log's pass was cut short: the delivery is still there, so is its event.
    await t.gateway.store.events.prune(new Date(clock.now().getTime() - EVENT_RETENTION_MS), 100);
    expect(await sql<{ n: number }>`select count(*)::int as n from events where id = ${kept!.id}`.execute(db()).then((q) => q.rows[0]!.n)).toBe(1);
    const token = clientToken;
    const subscription = (await t.call('GET', '/v2/webhooks', { token })).json().data[0].id as string;
    const res = await t.call('POST', `/v2/webhooks/${subscription}/redeliver`, { token, body: { event_id: kept!.id } });
    expect(res.statusCode, res.body).toBe(200);
    await eventually(() => r.requests.filter((q) => q.json.meta.idempotency_key === kept!.id && q.status === 200).length === 2);
  });
});
