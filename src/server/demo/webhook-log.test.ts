import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { demoPageOrigins, reachableBase } from './setup.ts';
import { signatureValid, webhookLog } from './webhook-log.ts';

describe('the demo CRM’s webhook receiver', () => {
  const secret = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
  const body = JSON.stringify({ event: 'message.add', data: [{ text: 'Hello' }], meta: { idempotency_key: 'k', timestamp: 1 } });
  const at = new Date('2026-11-26T12:00:00Z');
  const seconds = at.getTime() / 1000;
  // Signed as the Standard Webhooks library signs, which the gateway's deliveries follow.
  const headers = (signature: string, timestamp = seconds) => ({ 'webhook-id': 'msg_1', 'webhook-timestamp': String(timestamp), 'webhook-signature': signature });
  const signed = new Webhook(secret).sign('msg_1', at, body);

  it('believes a delivery signed with the account’s secret, also while a rotated secret signs beside it', () => {
    expect(signatureValid(secret, headers(signed), body, seconds)).toBe(true);
    expect(signatureValid(secret, headers(`v1,${Buffer.alloc(32).toString('base64')} ${signed}`), body, seconds + 60)).toBe(true);
  });

  it('refuses another body, another secret, a missing header and an old delivery', () => {
    expect(signatureValid(secret, headers(signed), body.replace('Hello', 'Hallo'), seconds)).toBe(false);
    const other = `whsec_${Buffer.from('another secret of thirty-two b!!').toString('base64')}`;
    expect(signatureValid(other, headers(signed), body, seconds)).toBe(false);
    expect(signatureValid(secret, { 'webhook-id': 'msg_1' }, body, seconds)).toBe(false);
    expect(signatureValid(secret, headers(signed), body, seconds + 6 * 60)).toBe(false);
  });

  it('keeps the last 200 deliveries for the page, each read once after its position', () => {
    const log = webhookLog();
    for (let i = 0; i < 205; i++) log.add('message.add', { i }, at, 7);
    expect(log.after(0)).toHaveLength(200);
    expect(log.after(0)[0]).toMatchObject({ seq: 6, body: { i: 5 } });
    expect(log.after(204).map((e) => e.seq)).toEqual([205]);
  });

  it('lets the page be opened at the public address or at loopback spelled either way', () => {
    expect(reachableBase('http://0.0.0.0:8080')).toBe('http://127.0.0.1:8080');
    expect(demoPageOrigins('http://localhost:8080', 'http://127.0.0.1:8080').sort()).toEqual(['http://127.0.0.1:8080', 'http://localhost:8080']);
    expect(demoPageOrigins('https://gw.example.com', 'http://127.0.0.1:8080')).toContain('https://gw.example.com');
  });
});
