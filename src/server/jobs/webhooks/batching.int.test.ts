import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { version as uuidVersion } from 'uuid';
import { startTestGateway, type TestGateway } from '../../testing/harness.ts';
import { ManualClock } from '../../testing/manual-clock.ts';
import { databaseKind } from '../../testing/test-database.ts';
import { verifiesWith } from '../../testing/verify-signature.ts';
import { driveDeliveries, eventually, recordEvents } from '../../testing/webhook-driver.ts';
import { seededRandom, startWebhookReceiver, type Answer, type WebhookReceiver } from '../../testing/webhook-receiver.ts';

describe(`batched delivery, when the account opts in (${databaseKind()})`, () => {
  const clock = new ManualClock(Date.now());
  let t: TestGateway;
  let r: WebhookReceiver;

  beforeAll(async () => {
    // One delivery at a time per endpoint, so that events pile up behind a slow answer.
    t = await startTestGateway({ clock, webhooks: { random: seededRandom(3), timeoutMs: 5_000, sweepIntervalMs: 0, perEndpoint: 1 } });
  });
  afterAll(async () => {
    await r?.close();
    await t.close();
  });

  it('is off until the account turns it on', async () => {
    const { token } = await t.newAccount();
    expect((await t.call('GET', '/v2/webhooks/settings', { token })).json().data).toEqual({ batching: false });
    const on = await t.call('PATCH', '/v2/webhooks/settings', { token, body: { batching: true } });
    expect(on.statusCode).toBe(200);
    expect(on.json().data).toEqual({ batching: true });
    expect((await t.call('GET', '/v2/webhooks/settings', { token })).json().data).toEqual({ batching: true });
    expect((await t.call('PATCH', '/v2/webhooks/settings', { token, body: { batching: 'yes' } })).statusCode).toBe(400);
  });

  it('puts ready events of one name into one POST, one per chat and in chat order, and retries a batch as it was', async () => {
    const { accountId, token } = await t.newAccount();
    await t.call('PATCH', '/v2/webhooks/settings', { token, body: { batching: true } });
    let batchesFailed = 0;
    r = await startWebhookReceiver((req, previous): Answer => {
      if (req.json.data.length > 1 && previous === 0 && batchesFailed++ === 0) return { status: 500 };
      return { status: 200, delayMs: req.path.length > 0 && r.requests.length === 1 ? 400 : 0 };
    });
    const subscribed = await t.call('POST', '/v2/webhooks', {
      token,
      body: { data: [{ url: r.url, event: 'message.add' }, { url: r.url, event: 'message.status_update' }] },
    });
    expect(subscribed.statusCode).toBe(201);
    const secret = (await t.call('GET', '/v2/webhooks/signing-secret', { token })).json().data.secret as string;

    const first = await recordEvents(t, clock, accountId, [{ name: 'message.add', orderingKey: 'chat:c:z', payload: { chat: 'z', n: 0, name: 'message.add' } }]);
    await eventually(() => r.requests.length === 1);
    const rest = await recordEvents(
      t,
      clock,
      accountId,
      ['a', 'b', 'c', 'd', 'e', 'z'].flatMap((chat) =>
        [1, 2].map((n) => {
          const name = n === 2 && chat < 'c' ? 'message.status_update' : 'message.add';
          return { name, orderingKey: `chat:c:${chat}`, payload: { chat, n, name } };
        }),
      ),
    );
    const all = [...first, ...rest];
    const ok = () => r.requests.filter((q) => q.status === 200);
    await driveDeliveries(t, clock, () => ok().flatMap((q) => q.json.data).length === all.length);

    const items = ok().flatMap((q) => q.json.data as { chat: string; n: number; name: string }[]);
    expect(items.map((i) => `${i.chat}${i.n}`).sort()).toEqual(all.map((e) => { const p = e.payload as { chat: string; n: number }; return `${p.chat}${p.n}`; }).sort());
    const batches = r.requests.filter((q) => q.json.data.length > 1);
    expect(batches.length).toBeGreaterThan(0);
    const eventIds = new Set(all.map((e) => e.id));
    for (const q of r.requests) {
      const data = q.json.data as { chat: string; name: string }[];
      expect(data.every((d) => d.name === q.json.event)).toBe(true);
      expect(new Set(data.map((d) => d.chat)).size).toBe(data.length);
      expect(q.headers['webhook-id']).toBe(q.json.meta.idempotency_key);
      // The interface has the key a UUID v4, batches' keys (new or follow-up) too.
      expect(uuidVersion(q.json.meta.idempotency_key)).toBe(4);
      expect(verifiesWith(secret, q)).toBe(true);
      if (data.length > 1) expect(eventIds.has(q.json.meta.idempotency_key)).toBe(false);
    }
    // The failed batch came back whole: same key, same body.
    const failed = r.requests.find((q) => q.status === 500)!;
    const retried = r.requests.filter((q) => q.json.meta.idempotency_key === failed.json.meta.idempotency_key);
    expect(retried.map((q) => q.status)).toEqual([500, 200]);
    expect(retried[1]!.body).toBe(failed.body);
    // In order per chat across POSTs.
    for (const chat of new Set(items.map((i) => i.chat))) {
      const order = items.filter((i) => i.chat === chat).map((i) => i.n);
      expect(order).toEqual([...order].sort((a, b) => a - b));
    }
  });
});
