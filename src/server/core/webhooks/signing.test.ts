import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { newSigningSecret, signature, signedHeaders } from './signing.ts';

describe('Standard Webhooks signatures', () => {
  const body = JSON.stringify({ event: 'message.add', data: [{ text: 'Привет' }], meta: { idempotency_key: 'k', timestamp: 1 } });
  const now = Math.floor(Date.now() / 1000);

  it('makes secrets of the whsec_ form with 32 random bytes', () => {
    const a = newSigningSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(a.slice(6), 'base64')).toHaveLength(32);
    expect(newSigningSecret()).not.toBe(a);
  });

  it('signs the way the standardwebhooks library signs and verifies', () => {
    const secret = newSigningSecret();
    const id = 'c5e9d3a4-5d0c-4a43-9b7a-4a0f3f1f6b11';
    expect(signature(secret, id, now, body)).toBe(new Webhook(secret).sign(id, new Date(now * 1000), body));
    expect(() => new Webhook(secret).verify(body, signedHeaders([secret], id, now, body))).not.toThrow();
  });

  it('carries one signature per secret in force, each verifiable on its own', () => {
    const [older, newer] = [newSigningSecret(), newSigningSecret()];
    const headers = signedHeaders([newer, older], 'id-1', now, body);
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    for (const s of [older, newer]) expect(() => new Webhook(s).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(newSigningSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(newer).verify(body.replace('Привет', 'Пока'), headers)).toThrow();
  });
});
