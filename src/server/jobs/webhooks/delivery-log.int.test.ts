import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../../testing/harness.ts';
import { ManualClock } from '../../testing/manual-clock.ts';
import { databaseKind } from '../../testing/test-database.ts';
import { pruneDeliveryLog } from '../../core/webhooks/delivery-log.ts';
import { driveDeliveries, eventually, recordEvents } from '../../testing/webhook-driver.ts';
import { seededRandom, startWebhookReceiver, type WebhookReceiver } from '../../testing/webhook-receiver.ts';

describe(`delivery log and redelivery (${databaseKind()})`, () => {
  const clock = new ManualClock(Date.now());
  let t: TestGateway;
  let r: WebhookReceiver;
  let token: string;
  let accountId: string;
  let id: string;

  beforeAll(async () => {
    t = await startTestGateway({ clock, webhooks: { random: seededRandom(11), timeoutMs: 5_000, sweepIntervalMs: 0 } });
    ({ accountId, token } = await t.newAccount());
    // Chat "bad" always fails; the rest are taken at once.
    r = await startWebhookReceiver((req) => ({ status: (req.json.data[0] as { chat: string }).chat === 'bad' ? 502 : 204 }));
    id = (await t.call('POST', '/v2/webhooks', { token, body: { data: [{ url: r.url, event: 'message.add' }] } })).json().data[0].id;
  });
  afterAll(async () => {
    await r.close();
    await t.close();
  });

  it('lists deliveries and attempts with status code, latency and error, and queues one event or every failure again', async () => {
    const [good, bad] = await recordEvents(t, clock, accountId, [
      { name: 'message.add', orderingKey: 'chat:c:good', payload: { chat: 'good' } },
      { name: 'message.add', orderingKey: 'chat:c:bad', payload: { chat: 'bad' } },
    ]);
    await driveDeliveries(t, clock);

    const deliveries = (await t.call('GET', `/v2/webhooks/${id}/deliveries`, { token })).json().data;
    expect(deliveries).toHaveLength(2);
    expect(deliveries).toContainEqual({
      event_id: good!.id,
      event: 'message.add',
      status: 'delivered',
      attempts: 1,
      created_at: good!.createdAt.toISOString(),
      next_attempt_at: null,
      delivered_at: expect.any(String),
      last_status_code: 204,
      last_error: null,
    });
    expect(deliveries).toContainEqual(expect.objectContaining({ event_id: bad!.id, status: 'failed', attempts: 8, last_status_code: 502, last_error: 'HTTP 502' }));
    const failedOnly = (await t.call('GET', `/v2/webhooks/${id}/deliveries?status=failed`, { token })).json().data;
    expect(failedOnly.map((d: { event_id: string }) => d.event_id)).toEqual([bad!.id]);

    const attempts = (await t.call('GET', `/v2/webhooks/${id}/attempts?limit=100`, { token })).json().data;
    expect(attempts).toHaveLength(9);
    expect(attempts.filter((a: { outcome: string }) => a.outcome === 'retry')).toHaveLength(7);
    expect(attempts[0]).toEqual({
      id: expect.any(String),
      idempotency_key: bad!.id,
      event: 'message.add',
      event_ids: [bad!.id],
      attempted_at: expect.any(String),
      status_code: 502,
      latency_ms: expect.any(Number),
      error: 'HTTP 502',
      outcome: 'failed',
    });
    const page = (await t.call('GET', `/v2/webhooks/${id}/attempts?limit=3`, { token })).json().data;
    expect(page).toHaveLength(3);
    const older = (await t.call('GET', `/v2/webhooks/${id}/attempts?limit=100&before=${encodeURIComponent(page[2].attempted_at)}`, { token })).json().data;
    expect(older.every((a: { attempted_at: string }) => a.attempted_at < page[2].attempted_at)).toBe(true);

    // One delivered event again: same key, same body.
    const before = r.requests.length;
    const again = await t.call('POST', `/v2/webhooks/${id}/redeliver`, { token, body: { event_id: good!.id } });
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toEqual({ event_ids: [good!.id] });
    await driveDeliveries(t, clock, () => r.requests.length > before);
    const resent = r.requests.slice(before);
    expect(resent.map((q) => q.json.meta.idempotency_key)).toEqual([good!.id]);
    expect(resent[0]!.body).toBe(r.requests.find((q) => q.json.meta.idempotency_key === good!.id)!.body);

    // Everything failed since a time: the receiver is fixed now.
    r.behave(() => ({ status: 200 }));
    const since = await t.call('POST', `/v2/webhooks/${id}/redeliver`, { token, body: { failed_since: new Date(0).toISOString() } });
    expect(since.json().data).toEqual({ event_ids: [bad!.id] });
    await driveDeliveries(t, clock, () => r.requests.some((q) => q.status === 200 && q.json.meta.idempotency_key === bad!.id));
    const after = (await t.call('GET', `/v2/webhooks/${id}/deliveries?status=failed`, { token })).json().data;
    expect(after).toEqual([]);
    expect((await t.call('POST', `/v2/webhooks/${id}/redeliver`, { token, body: { failed_since: new Date(0).toISOString() } })).json().data).toEqual({
      event_ids: [],
    });
  });

  it('answers 404 for a foreign or unknown subscription, and for an event never routed to it; 400 for a body that is neither form', async () => {
    const other = await t.newAccount();
    for (const path of ['deliveries', 'attempts']) {
      const res = await t.call('GET', `/v2/webhooks/${id}/${path}`, { token: other.token });
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('WEBHOOK_NOT_FOUND');
    }
    const foreign = await t.call('POST', `/v2/webhooks/${id}/redeliver`, { token: other.token, body: { event_id: crypto.randomUUID() } });
    expect(foreign.json().error).toBe('WEBHOOK_NOT_FOUND');
    const unknown = await t.call('POST', `/v2/webhooks/${id}/redeliver`, { token, body: { event_id: crypto.randomUUID() } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe('WEBHOOK_DELIVERY_NOT_FOUND');
    expect((await t.call('POST', `/v2/webhooks/${id}/redeliver`, { token, body: {} })).statusCode).toBe(400);
    expect((await t.call('GET', `/v2/webhooks/${id}/deliveries?limit=1000`, { token })).statusCode).toBe(400);
  });

  it('forgets attempts and finished deliveries after 30 days, never open ones', async () => {
    const [old] = await recordEvents(t, clock, accountId, [{ name: 'message.add', orderingKey: 'chat:c:old', payload: { chat: 'old' } }]);
    await driveDeliveries(t, clock);
    r.behave(() => 'hang');
    clock.advance(31 * 86_400_000);
    const [open] = await recordEvents(t, clock, accountId, [{ name: 'message.add', orderingKey: 'chat:c:open', payload: { chat: 'open' } }]);
    await eventually(() => r.requests.some((q) => q.json.meta.idempotency_key === open!.id));
    clock.advance(31 * 86_400_000);
    expect(await pruneDeliveryLog({ store: t.gateway.store, clock })).toBeGreaterThan(0);
    const left = (await t.call('GET', `/v2/webhooks/${id}/deliveries?limit=100`, { token })).json().data as { event_id: string }[];
    expect(left.map((d) => d.event_id)).toEqual([open!.id]);
    expect(left.some((d) => d.event_id === old!.id)).toBe(false);
    const attempts = (await t.call('GET', `/v2/webhooks/${id}/attempts?limit=100`, { token })).json().data as { event_ids: string[] }[];
    expect(attempts.every((a) => a.event_ids.includes(open!.id))).toBe(true);
    r.behave(() => ({ status: 200 }));
  });

  it("deletes a subscription's attempts with it, and no other subscription's", async () => {
    const other = await startWebhookReceiver(() => ({ status: 200 }));
    try {
      const [second] = (await t.call('POST', '/v2/webhooks', { token, body: { data: [{ url: other.url, event: 'message.add' }] } })).json().data;
      await recordEvents(t, clock, accountId, [{ name: 'message.add', orderingKey: 'chat:c:gone', payload: { chat: 'gone' } }]);
      await driveDeliveries(t, clock, () => other.requests.length === 1);
      const logged = async (subscription: string) =>
        (await sql<{ n: number }>`select count(*)::int as n from webhook_attempts where subscription_id = ${subscription}`.execute(t.gateway.database.db)).rows[0]!.n;
      // The POST arrives before its settlement commits.
      await eventually(async () => (await logged(second.id)) === 1);
      const kept = await logged(id);
      expect(kept).toBeGreaterThan(0);

      expect((await t.call('DELETE', '/v2/webhooks', { token, body: { data: [{ id: second.id }] } })).statusCode).toBe(200);
      expect(await logged(second.id)).toBe(0);
      expect(await logged(id)).toBe(kept);
    } finally {
      await other.close();
    }
  });

  it('documents the webhook routes under one tag', async () => {
    const doc = (await t.gateway.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    for (const path of ['/v2/webhooks', '/v2/webhooks/signing-secret', '/v2/webhooks/settings', '/v2/webhooks/{webhook_id}/deliveries', '/v2/webhooks/{webhook_id}/attempts', '/v2/webhooks/{webhook_id}/redeliver']) {
      const ops = Object.values(doc.paths[path] as Record<string, { tags: string[] }>);
      expect(ops.length, path).toBeGreaterThan(0);
      for (const op of ops) expect(op.tags).toEqual(['webhooks']);
    }
  });
});
