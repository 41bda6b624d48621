import { afterEach, describe, expect, it } from 'vitest';
import { staticResolver } from '../../testing/static-resolver.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../testing/webhook-receiver.ts';
import { httpWebhookSender } from './http-sender.ts';

const body = JSON.stringify({ event: 'message.add', data: [], meta: { idempotency_key: '00000000-0000-4000-8000-000000000000', timestamp: 1 } });

describe('the webhook HTTP sender', () => {
  let receiver: WebhookReceiver | null = null;
  const senders: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    await receiver?.close();
    receiver = null;
    await Promise.all(senders.splice(0).map((s) => s.close()));
  });

  const sender = (table: Record<string, string[]>, allowLoopback = true) => {
    const s = httpWebhookSender({ policy: { allowLoopback }, resolveHost: staticResolver(table) });
    senders.push(s);
    return s;
  };
  const post = (s: ReturnType<typeof sender>, url: string, timeoutMs = 2_000) =>
    s.post({ url, headers: { 'content-type': 'application/json', 'webhook-id': 'k' }, body, timeoutMs });
  const nameFor = (r: WebhookReceiver, host: string) => r.url.replace('127.0.0.1', host);

  it('connects to the address it resolved and checked, not wherever the system resolver would go', async () => {
    receiver = await startWebhookReceiver();
    const res = await post(sender({ 'hooks.crm.test': ['127.0.0.1'] }), nameFor(receiver, 'hooks.crm.test'));
    expect(res).toMatchObject({ status: 200 });
    expect(receiver.requests).toHaveLength(1);
    expect(receiver.requests[0]!.headers.host).toMatch(/^hooks\.crm\.test:\d+$/);
  });

  it('refuses to connect when the name resolves to a private address, or to loopback unless allowed', async () => {
    receiver = await startWebhookReceiver();
    expect(await post(sender({ 'hooks.crm.test': ['10.0.0.5'] }), nameFor(receiver, 'hooks.crm.test'))).toMatchObject({
      error: 'address not allowed: hooks.crm.test resolves to 10.0.0.5: private addresses are not allowed',
    });
    expect(await post(sender({ 'hooks.crm.test': ['127.0.0.1'] }, false), nameFor(receiver, 'hooks.crm.test'))).toMatchObject({
      error: 'address not allowed: hooks.crm.test resolves to 127.0.0.1: loopback addresses are not allowed',
    });
    expect(await post(sender({}, false), receiver.url)).toMatchObject({ error: '127.0.0.1: loopback addresses are not allowed' });
    expect(receiver.requests).toHaveLength(0);
  });

  it('returns a redirect as the answer without following it, with Retry-After when given', async () => {
    const target = await startWebhookReceiver();
    receiver = await startWebhookReceiver(() => ({ status: 307, headers: { location: target.url, 'retry-after': '30' } }));
    try {
      expect(await post(sender({}), receiver.url)).toMatchObject({ status: 307, retryAfter: '30' });
      expect(target.requests).toHaveLength(0);
    } finally {
      await target.close();
    }
  });

  it('gives up on an endpoint that does not answer in time', async () => {
    receiver = await startWebhookReceiver(() => 'hang');
    const res = await post(sender({}), receiver.url, 200);
    expect(res).toMatchObject({ error: 'no answer within 0.2 s' });
    expect(res.latencyMs).toBeGreaterThanOrEqual(190);
  });

  it('reports a refused connection as an error', async () => {
    receiver = await startWebhookReceiver();
    const url = receiver.url;
    await receiver.close();
    receiver = null;
    expect(await post(sender({}), url)).toMatchObject({ error: expect.stringContaining('ECONNREFUSED') });
  });
});
