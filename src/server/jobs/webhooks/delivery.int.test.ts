import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../../testing/harness.ts';
import { ManualClock } from '../../testing/manual-clock.ts';
import { databaseKind } from '../../testing/test-database.ts';
import { verifiesWith } from '../../testing/verify-signature.ts';
import { driveDeliveries, eventually, recordEvents } from '../../testing/webhook-driver.ts';
import { seededRandom, startWebhookReceiver, type Answer, type ReceivedRequest, type WebhookReceiver } from '../../testing/webhook-receiver.ts';

const TIMEOUT_MS = 1_500;

describe(`webhook delivery to a difficult receiver (${databaseKind()})`, () => {
  const clock = new ManualClock(Date.now());
  let t: TestGateway;
  let receivers: WebhookReceiver[] = [];

  beforeAll(async () => {
    // 8 attempts per endpoint at a time (not the default 16), so that a few chats are enough to reach the limit.
    t = await startTestGateway({ clock, webhooks: { random: seededRandom(7), timeoutMs: TIMEOUT_MS, sweepIntervalMs: 0, perEndpoint: 8 } });
  });
  afterEach(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    receivers = [];
  });
  afterAll(() => t.close());

  const receiver = async (...args: Parameters<typeof startWebhookReceiver>) => {
    const r = await startWebhookReceiver(...args);
    receivers.push(r);
    return r;
  };

  async function subscribe(token: string, url: string, event = 'message.add'): Promise<string> {
    const res = await t.call('POST', '/v2/webhooks', { token, body: { data: [{ url, event }] } });
    expect(res.statusCode).toBe(201);
    return (res.json().data as { id: string }[])[0]!.id;
  }

  const secretOf = async (token: string) => (await t.call('GET', '/v2/webhooks/signing-secret', { token })).json().data.secret as string;

  const chatEvents = (chats: string[], perChat: number) =>
    Array.from({ length: perChat }, (_, n) =>
      chats.map((chat) => ({ name: 'message.add', orderingKey: `chat:c1:${chat}`, payload: { chat, n, message_id: `${chat}-${n}` } })),
    ).flat();

  const delivered = (r: WebhookReceiver) => r.requests.filter((q) => q.status !== null && q.status >= 200 && q.status < 300);

  /** Within one chat, no request for a later event ever came before the earlier event was answered 2xx. */
  function expectInOrderPerChat(requests: ReceivedRequest[]) {
    const done = new Map<string, number>();
    for (const r of requests) {
      for (const item of r.json.data as { chat: string; n: number }[]) {
        const last = done.get(item.chat) ?? -1;
        expect(item.n, `chat ${item.chat}: event ${item.n} sent before ${last + 1} was delivered`).toBeLessThanOrEqual(last + 1);
        if (r.status !== null && r.status >= 200 && r.status < 300) done.set(item.chat, Math.max(last, item.n));
      }
    }
  }

  it('gets every event through failures, redirects, 429 with Retry-After and timeouts, in order per chat, same key and body on every attempt, signed', async () => {
    const { accountId, token } = await t.newAccount();
    const elsewhere = await receiver();
    // Per event: 500, then a redirect, then 429 asking for two hours, then no answer in time, then 200.
    const r = await receiver((_req, previous): Answer => {
      switch (previous) {
        case 0:
          return { status: 500 };
        case 1:
          return { status: 302, headers: { location: elsewhere.url } };
        case 2:
          return { status: 429, headers: { 'retry-after': '7200' } };
        case 3:
          return 'hang';
        default:
          return { status: 200 };
      }
    });
    await subscribe(token, r.url);
    const secret = await secretOf(token);
    const events = await recordEvents(t, clock, accountId, chatEvents(['a', 'b'], 3));

    await driveDeliveries(t, clock, () => delivered(r).length === events.length);

    expect(delivered(r).map((q) => q.json.meta.idempotency_key).sort()).toEqual(events.map((e) => e.id).sort());
    expectInOrderPerChat(r.requests);
    expect(elsewhere.requests).toHaveLength(0);
    for (const event of events) {
      const attempts = r.requests.filter((q) => q.headers['webhook-id'] === event.id);
      expect(attempts.map((q) => q.status)).toEqual([500, 302, 429, null, 200]);
      expect(new Set(attempts.map((q) => q.json.meta.idempotency_key))).toEqual(new Set([event.id]));
      expect(new Set(attempts.map((q) => q.body)).size).toBe(1);
      expect(attempts[0]!.json).toEqual({
        event: 'message.add',
        data: [event.payload],
        meta: { idempotency_key: event.id, timestamp: Math.floor(event.createdAt.getTime() / 1000) },
      });
      for (const q of attempts) expect(verifiesWith(secret, q)).toBe(true);
      const at = attempts.map((q) => Number(q.headers['webhook-timestamp']));
      // 5 s and 5 min with at most 20% jitter; then Retry-After (2 h) outweighs the 30-minute step.
      expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(4);
      expect(at[1]! - at[0]!).toBeLessThanOrEqual(6);
      expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(240);
      expect(at[3]! - at[2]!).toBeGreaterThanOrEqual(7200);
    }
  });

  it('refuses a signature made with another secret', async () => {
    const { accountId, token } = await t.newAccount();
    const r = await receiver();
    await subscribe(token, r.url);
    await recordEvents(t, clock, accountId, chatEvents(['x'], 1));
    await eventually(() => r.requests.length === 1);
    const other = await t.newAccount();
    expect(verifiesWith(await secretOf(token), r.requests[0]!)).toBe(true);
    expect(verifiesWith(await secretOf(other.token), r.requests[0]!)).toBe(false);
    expect(verifiesWith(await secretOf(token), { ...r.requests[0]!, body: r.requests[0]!.body.replace('"x"', '"y"') })).toBe(false);
  });

  it('signs with both secrets for 24 hours after a rotation, then with the new one only', async () => {
    const { accountId, token } = await t.newAccount();
    const r = await receiver();
    await subscribe(token, r.url);
    const before = await secretOf(token);
    const rotated = await t.call('POST', '/v2/webhooks/signing-secret', { token });
    expect(rotated.statusCode).toBe(200);
    const after = rotated.json().data.secret as string;
    expect(after).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(after).not.toBe(before);
    expect(await secretOf(token)).toBe(after);

    await recordEvents(t, clock, accountId, chatEvents(['r'], 1));
    await eventually(() => r.requests.length === 1);
    expect(r.requests[0]!.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(verifiesWith(before, r.requests[0]!)).toBe(true);
    expect(verifiesWith(after, r.requests[0]!)).toBe(true);

    clock.advance(24 * 3600 * 1000 + 1000);
    await recordEvents(t, clock, accountId, chatEvents(['s'], 1));
    await eventually(() => r.requests.length === 2);
    expect(r.requests[1]!.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(verifiesWith(after, r.requests[1]!)).toBe(true);
    expect(verifiesWith(before, r.requests[1]!)).toBe(false);
  });

  it('disables a subscription answered with 410 and says why; a PATCH enables it and failed events can be sent again', async () => {
    const { accountId, token } = await t.newAccount();
    const r = await receiver(() => ({ status: 410 }));
    const id = await subscribe(token, r.url);
    const [first] = await recordEvents(t, clock, accountId, chatEvents(['g'], 1));
    await driveDeliveries(t, clock);
    expect(r.requests).toHaveLength(1);
    const listed = (await t.call('GET', '/v2/webhooks', { token })).json().data;
    expect(listed).toEqual([{ id, url: r.url, event: 'message.add', status: 'disabled', disabled_reason: 'the endpoint answered 410 Gone' }]);

    // Nothing more is sent while disabled.
    await recordEvents(t, clock, accountId, chatEvents(['h'], 1));
    await driveDeliveries(t, clock);
    expect(r.requests).toHaveLength(1);
    expect((await t.call('POST', `/v2/webhooks/${id}/redeliver`, { token, body: { event_id: first!.id } })).statusCode).toBe(409);

    r.behave(() => ({ status: 200 }));
    const patched = await t.call('PATCH', '/v2/webhooks', { token, body: { data: [{ id, url: r.url, event: 'message.add' }] } });
    expect(patched.json().data[0]).toMatchObject({ status: 'active', disabled_reason: null });
    const redone = await t.call('POST', `/v2/webhooks/${id}/redeliver`, { token, body: { failed_since: first!.createdAt.toISOString() } });
    expect(redone.statusCode).toBe(200);
    expect(redone.json().data.event_ids).toEqual([first!.id]);
    await driveDeliveries(t, clock, () => delivered(r).length === 1);
    expect(delivered(r)[0]!.json.meta.idempotency_key).toBe(first!.id);
  });

  it('gives up on an event after the whole schedule, and disables a subscription that failed for 5 days', async () => {
    const { accountId, token } = await t.newAccount();
    const r = await receiver(() => ({ status: 500 }));
    const id = await subscribe(token, r.url);
    const started = clock.now().getTime();
    const [first] = await recordEvents(t, clock, accountId, chatEvents(['f'], 1));
    await driveDeliveries(t, clock);
    // The first attempt and seven retries, spread over about 27 hours.
    expect(r.requests).toHaveLength(8);
    const span = Number(r.requests[7]!.headers['webhook-timestamp']) - Number(r.requests[0]!.headers['webhook-timestamp']);
    expect(span).toBeGreaterThan(0.8 * 99_305);
    expect(span).toBeLessThan(1.2 * 99_305);
    const deliveries = (await t.call('GET', `/v2/webhooks/${id}/deliveries`, { token })).json().data;
    expect(deliveries).toEqual([expect.objectContaining({ event_id: first!.id, status: 'failed', attempts: 8, last_status_code: 500, last_error: 'HTTP 500' })]);
    expect((await t.call('GET', '/v2/webhooks', { token })).json().data[0].status).toBe('active');

    clock.set(started + 4 * 86_400_000);
    await recordEvents(t, clock, accountId, chatEvents(['f2'], 1));
    await driveDeliveries(t, clock);
    const [subscription] = (await t.call('GET', '/v2/webhooks', { token })).json().data;
    expect(subscription.status).toBe('disabled');
    expect(subscription.disabled_reason).toContain('5 days');
    const lastAttempt = Number(r.requests.at(-1)!.headers['webhook-timestamp']) * 1000;
    expect(lastAttempt - started).toBeGreaterThanOrEqual(5 * 86_400_000);
  });

  it('keeps a healthy endpoint flowing while another one hangs on every request', async () => {
    // A gateway of its own, with a time limit long enough that no healthy answer can miss it.
    const g = await startTestGateway({ clock, webhooks: { timeoutMs: 8_000, sweepIntervalMs: 0, perEndpoint: 8 } });
    try {
      const { accountId, token } = await g.newAccount();
      const dead = await receiver(() => 'hang');
      const healthy = await receiver();
      for (const url of [dead.url, healthy.url]) {
        expect((await g.call('POST', '/v2/webhooks', { token, body: { data: [{ url, event: 'message.add' }] } })).statusCode).toBe(201);
      }
      const chats = Array.from({ length: 12 }, (_, i) => `d${i}`);
      await recordEvents(g, clock, accountId, chatEvents(chats, 2));
      await eventually(() => healthy.requests.length === 24, 7_000);
      // Everything reached the healthy endpoint while the dead one still held its first attempts, no more
      // of them at once than its share of the workers.
      expect(delivered(healthy)).toHaveLength(24);
      expect(dead.requests.length).toBeGreaterThan(0);
      expect(dead.maxInFlight()).toBeLessThanOrEqual(8);
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from webhook_attempts where status_code is null`.execute(g.gateway.database.db);
      expect(rows[0]!.n).toBe(0);
    } finally {
      await Promise.all(receivers.map((r) => r.close()));
      receivers = [];
      await g.close();
    }
  });

  it('sends to one endpoint concurrently across chats, never two at once in one chat', async () => {
    const { accountId, token } = await t.newAccount();
    const inFlightPerChat = new Map<string, number>();
    let overlap = false;
    const r = await receiver((req) => {
      for (const { chat } of req.json.data as { chat: string }[]) {
        const n = (inFlightPerChat.get(chat) ?? 0) + 1;
        if (n > 1) overlap = true;
        inFlightPerChat.set(chat, n);
        setTimeout(() => inFlightPerChat.set(chat, (inFlightPerChat.get(chat) ?? 1) - 1), 60);
      }
      return { status: 200, delayMs: 60 };
    });
    await subscribe(token, r.url);
    // More chats than the endpoint's 8 slots, so the limit is what holds the rest back.
    const events = await recordEvents(t, clock, accountId, chatEvents(['p', 'q', 'r', 's', 't', 'u', 'v', 'w', 'x', 'y'], 4));
    await eventually(() => delivered(r).length === events.length, 15_000);
    expect(overlap).toBe(false);
    expect(r.maxInFlight()).toBeGreaterThan(1);
    expect(r.maxInFlight()).toBeLessThanOrEqual(8);
    expectInOrderPerChat(r.requests);
  });
});
