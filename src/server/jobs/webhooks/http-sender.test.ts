import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
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

  it('gives up on an answer whose body is still trickling in when the time is up', async () => {
    // Headers at once, then a byte every 50 ms for a second: no phase of undici's waits long enough to end it.
    const slow = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const drip = setInterval(() => res.write('.'), 50);
      const done = setTimeout(() => {
        clearInterval(drip);
        res.end();
      }, 1_000);
      res.on('close', () => {
        clearInterval(drip);
        clearTimeout(done);
      });
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    try {
      const res = await post(sender({}), `http://127.0.0.1:${(slow.address() as AddressInfo).port}/hook`, 200);
      expect(res).toMatchObject({ error: 'no answer within 0.2 s' });
      expect(res.latencyMs).toBeGreaterThanOrEqual(190);
      expect(res.latencyMs).toBeLessThan(1_000);
    } finally {
      slow.closeAllConnections();
      await new Promise((resolve) => slow.close(resolve));
    }
  });

  it('stops reading an answer at the cap, and keeps its status', async () => {
    // An endless body: without the cap the attempt would run into its time limit.
    const endless = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = 'x'.repeat(16 * 1024);
      const more = () => {
        while (!res.destroyed && res.write(chunk));
      };
      res.on('drain', more);
      more();
    });
    await new Promise<void>((resolve) => endless.listen(0, '127.0.0.1', resolve));
    try {
      const capped = httpWebhookSender({ policy: { allowLoopback: true }, resolveHost: staticResolver({}), maxResponseBytes: 1024 });
      senders.push(capped);
      expect(await post(capped, `http://127.0.0.1:${(endless.address() as AddressInfo).port}/hook`, 1_000)).toMatchObject({ status: 200 });
    } finally {
      endless.closeAllConnections();
      await new Promise((resolve) => endless.close(resolve));
    }
  });

  it('refuses an address in the URL itself without connecting, every time', async () => {
    receiver = await startWebhookReceiver();
    const strict = sender({}, false);
    for (let i = 0; i < 2; i++) {
      expect(await post(strict, receiver.url)).toMatchObject({ error: '127.0.0.1: loopback addresses are not allowed' });
    }
    expect(receiver.requests).toHaveLength(0);
  });

  it('reports a refused connection as an error', async () => {
    receiver = await startWebhookReceiver();
    const url = receiver.url;
    await receiver.close();
    receiver = null;
    expect(await post(sender({}), url)).toMatchObject({ error: expect.stringContaining('ECONNREFUSED') });
  });
});
