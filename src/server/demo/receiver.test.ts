import Fastify, { type FastifyInstance } from 'fastify';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../testing/manual-clock.ts';
import { mountWebhookReceiver } from './receiver.ts';
import { RECEIVER_PATH } from './setup.ts';
import { webhookLog, type WebhookLog } from './webhook-log.ts';

describe('the demo CRM’s webhook receiver over HTTP', () => {
  const secret = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
  const clock = new ManualClock(new Date('2026-11-26T12:00:00Z'));
  let app: FastifyInstance;
  let log: WebhookLog;
  let n = 0;

  beforeAll(async () => {
    app = Fastify();
    log = webhookLog();
    await mountWebhookReceiver(app, { clock, signingSecret: async () => secret, log });
  });
  afterAll(() => app.close());

  const deliver = (payload: string, signed = true) => {
    const id = `msg_${++n}`;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (signed) {
      headers['webhook-id'] = id;
      headers['webhook-timestamp'] = String(Math.floor(clock.now().getTime() / 1000));
      headers['webhook-signature'] = new Webhook(secret).sign(id, clock.now(), payload);
    }
    return app.inject({ method: 'POST', url: RECEIVER_PATH, headers, payload });
  };
  const keptBytes = () => log.after(0).reduce((sum, e) => sum + JSON.stringify(e.body).length, 0);

  it('keeps nothing of an unsigned delivery, whatever its size', async () => {
    const big = JSON.stringify({ event: 'message.add', data: 'x'.repeat(1024 * 1024 - 40) });
    for (let i = 0; i < 5; i++) expect((await deliver(big, false)).statusCode).toBeGreaterThanOrEqual(400);
    expect(log.after(0)).toEqual([]);
  });

  it('answers 400 to a signed body that is not JSON, and keeps it not', async () => {
    const res = await deliver('{"event": ', true);
    expect(res.statusCode).toBe(400);
    expect(log.after(0)).toEqual([]);
  });

  it('keeps signed deliveries, at most 200 and at most a megabyte of them, the newest', async () => {
    expect((await deliver(JSON.stringify({ event: 'message.add', data: [{ text: 'hi' }] }))).statusCode).toBe(204);
    expect(log.after(0).map((e) => e.event)).toEqual(['message.add']);
    for (let i = 0; i < 40; i++) expect((await deliver(JSON.stringify({ event: 'message.add', data: `${i}:${'y'.repeat(60_000)}` }))).statusCode).toBe(204);
    expect(keptBytes()).toBeLessThanOrEqual(1024 * 1024);
    expect((log.after(0).at(-1)!.body as { data: string }).data.startsWith('39:')).toBe(true);
    for (let i = 0; i < 205; i++) await deliver(JSON.stringify({ event: 'message.add', i }));
    expect(log.after(0)).toHaveLength(200);
  });
});
