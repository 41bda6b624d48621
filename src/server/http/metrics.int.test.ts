import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TransientSendError, type MessagingDriver } from '../core/messages/ports.ts';
import { channelClient } from '../testing/channel-client.ts';
import { eventually } from '../testing/eventually.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { activeChannel, settled } from '../testing/messaging.ts';
import { databaseKind } from '../testing/test-database.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../testing/webhook-receiver.ts';

const METRICS_TOKEN = 'metrics-token-of-the-test-0123456789';

/** The value of one sample of Prometheus' text format, or undefined when the series is absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const given = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => given[k] === v)) return Number(match[3]);
  }
  return undefined;
}

/**
 * A messenger that answers by the text: `refused` is a refusal; `unreachable` is a network failure the first
 * time (tried again later) and then an answer that comes only when the test lets it.
 */
function scriptedMessenger() {
  let release: () => void = () => {};
  const answered = new Promise<void>((resolve) => (release = resolve));
  let unreachableTries = 0;
  const driver: MessagingDriver = {
    async send(m) {
      if (m.text === 'unreachable' && ++unreachableTries === 1) throw new TransientSendError('connection reset');
      if (m.text === 'unreachable') await answered;
      if (m.text === 'refused') return { kind: 'failed', reason: 'bad_contact' };
      return { kind: 'sent', messengerMessageId: `m-${m.requestId}`, chatId: m.chatId ?? '79005550001', delivered: true };
    },
    async edit() {},
    async remove() {},
  };
  return { driver, tries: () => unreachableTries, release: () => release() };
}

describe(`metrics (${databaseKind()})`, () => {
  const clock = new ManualClock(Date.now());
  let t: TestGateway;
  let token: string;
  let channel: string;
  let healthy: WebhookReceiver;
  let failing: WebhookReceiver;
  const messenger = scriptedMessenger();

  beforeAll(async () => {
    healthy = await startWebhookReceiver(() => ({ status: 200 }));
    // The first attempt of each event fails; the next hangs until the receiver closes.
    failing = await startWebhookReceiver((_request, previous) => (previous === 0 ? { status: 500 } : 'hang'));
    t = await startTestGateway({ clock, env: { METRICS_TOKEN }, messagingDriver: messenger.driver, webhooks: { sweepIntervalMs: 0, timeoutMs: 600_000 } });
    token = (await t.newAccount()).token;
    channel = await activeChannel(t, channelClient(t, token), 'whatsapp');
  });
  afterAll(async () => {
    messenger.release();
    // The receivers first: the gateway's stop waits for the POST that hangs.
    await Promise.all([healthy.close(), failing.close()]);
    await t.close();
  });

  const scrape = async () => {
    const res = await t.call('GET', '/metrics', { token: METRICS_TOKEN });
    expect(res.statusCode).toBe(200);
    return res.body;
  };
  const send = async (text: string) => {
    const res = await t.call('POST', '/v2/messages', { token, body: { channel_id: channel, recipient: { chat_type: 'whatsapp', chat_id: '79005550001' }, text } });
    expect(res.statusCode).toBe(201);
    return res.json().data.request_id as string;
  };

  it('answers only the metrics token, in Prometheus text format, with the process metrics', async () => {
    expect((await t.call('GET', '/metrics')).statusCode).toBe(401);
    expect((await t.call('GET', '/metrics', { token: 'metrics-token-of-the-test-012345678X' })).statusCode).toBe(401);
    // The partner key administers accounts; it is not the scraper's key.
    expect((await t.call('GET', '/metrics', { token: t.partnerKey })).statusCode).toBe(401);
    const res = await t.call('GET', '/metrics', { token: METRICS_TOKEN });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(sample(res.body, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(sample(res.body, 'gateway_channels', { transport: 'whatsapp', status: 'active' })).toBe(1);
  });

  it('counts sends by outcome and failure reason, and times requests by route template', async () => {
    const sent = await send('hello');
    const refused = await send('refused');
    await settled(t, sent);
    await settled(t, refused);
    await t.call('GET', `/v2/channels/${channel}/not-a-route`, { token });
    const text = await scrape();
    expect(sample(text, 'gateway_messenger_sends_total', { transport: 'whatsapp', outcome: 'sent' })).toBe(1);
    expect(sample(text, 'gateway_messenger_sends_total', { transport: 'whatsapp', outcome: 'refused' })).toBe(1);
    expect(sample(text, 'gateway_messenger_refusals_total', { transport: 'whatsapp', reason: 'bad_contact' })).toBe(1);
    expect(sample(text, 'gateway_messenger_call_duration_seconds_count', { transport: 'whatsapp', operation: 'send', result: 'answered' })).toBe(2);
    expect(sample(text, 'gateway_http_request_duration_seconds_count', { method: 'POST', route: '/v2/messages', status_code: '201' })).toBe(2);
    // A path no route serves is one series, not one per path.
    expect(sample(text, 'gateway_http_request_duration_seconds_count', { route: 'unmatched', status_code: '404' })).toBe(1);
    expect(text).not.toContain('not-a-route');
  });

  it('shows a send the network fails as waiting, and how long it has been due once it is stuck', async () => {
    const request = await send('unreachable');
    const text = await eventually(async () => {
      const scraped = await scrape();
      return sample(scraped, 'gateway_messenger_sends_total', { transport: 'whatsapp', outcome: 'network_error' }) === 1 ? scraped : undefined;
    });
    expect(sample(text, 'gateway_sends_waiting')).toBe(1);
    // Put back to be tried again a second from now: waiting, but not due yet.
    expect(sample(text, 'gateway_sends_oldest_wait_seconds')).toBe(0);
    // Ten minutes on, the second try hangs: the send has been due for all but the first second of them.
    clock.advance(600_000);
    t.gateway.wakeSends();
    await eventually(async () => (messenger.tries() === 2 ? true : undefined));
    const stuck = await scrape();
    expect(sample(stuck, 'gateway_sends_waiting')).toBe(1);
    expect(sample(stuck, 'gateway_sends_oldest_wait_seconds')).toBe(599);
    messenger.release();
    await settled(t, request);
    expect(sample(await scrape(), 'gateway_sends_waiting')).toBe(0);
  });

  it('counts webhook attempts by outcome and shows failing subscriptions and late deliveries', async () => {
    const { token: other } = await t.newAccount('Webhooks');
    const otherChannel = await activeChannel(t, channelClient(t, other), 'whatsapp');
    for (const url of [healthy.url, failing.url]) {
      const res = await t.call('POST', '/v2/webhooks', { token: other, body: { data: [{ url, event: 'message.status_update' }] } });
      expect(res.statusCode).toBe(201);
    }
    const res = await t.call('POST', '/v2/messages', {
      token: other,
      body: { channel_id: otherChannel, recipient: { chat_type: 'whatsapp', chat_id: '79005550002' }, text: 'hello' },
    });
    await settled(t, res.json().data.request_id as string);
    const text = await eventually(async () => {
      const scraped = await scrape();
      return (sample(scraped, 'gateway_webhook_attempts_total', { event: 'message.status_update', outcome: 'retry' }) ?? 0) >= 1 &&
        (sample(scraped, 'gateway_webhook_events_delivered_total', { event: 'message.status_update' }) ?? 0) >= 1
        ? scraped
        : undefined;
    });
    expect(sample(text, 'gateway_webhook_attempts_total', { event: 'message.status_update', outcome: 'delivered' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'gateway_webhook_post_duration_seconds_count', { answer: '2xx' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'gateway_webhook_post_duration_seconds_count', { answer: '5xx' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'gateway_webhook_subscriptions_failing')).toBe(1);
    expect(sample(text, 'gateway_webhook_deliveries_open')).toBeGreaterThanOrEqual(1);
    // The retry is scheduled ahead: nothing is late until the clock passes it.
    expect(sample(text, 'gateway_webhook_deliveries_late_seconds')).toBe(0);
    // An hour on, the retry hangs at the receiver. The chat's next event (delivered), due since it was recorded
    // an hour ago, still waits behind it: the endpoint's events are an hour late.
    clock.advance(3_600_000);
    await t.gateway.webhooks.sweep();
    await eventually(async () => (failing.requests.length >= 2 ? true : undefined));
    expect(sample(await scrape(), 'gateway_webhook_deliveries_late_seconds')).toBe(3_600);
  });
});

describe(`metrics without a token (${databaseKind()})`, () => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway();
  });
  afterAll(() => t.close());

  it('are not served at all', async () => {
    expect((await t.call('GET', '/metrics')).statusCode).toBe(404);
    expect((await t.call('GET', '/metrics', { token: t.partnerKey })).statusCode).toBe(404);
  });
});
