import { describe, expect, it } from 'vitest';
import { linkSigner, type LinkClaims } from './link-token.ts';

const now = new Date(Date.UTC(2030, 0, 1));
const claims: Omit<LinkClaims, 'id'> = {
  accountId: '11111111-1111-4111-8111-111111111111',
  kind: 'chats',
  user: { id: 'u1', name: 'Ann' },
  scope: 'card',
  chats: [{ chat_type: 'telegram', username: 'bob' }],
  activeChat: null,
  transport: null,
  channelId: null,
  options: { lang: 'en' },
  mintedBy: 'token:22222222-2222-4222-8222-222222222222',
  useEvents: { messages: true, deals: false },
  clientType: 'crm-web',
  expiresAt: new Date(now.getTime() + 3600_000),
};
const signer = linkSigner('k'.repeat(40));

describe('iframe link tokens', () => {
  it('round-trips the claims, with a fresh id per link', async () => {
    const first = await signer.sign(claims, now);
    const second = await signer.sign(claims, now);
    expect(first.claims.id).not.toBe(second.claims.id);
    expect(await signer.verify(first.token, now)).toEqual({ status: 'valid', claims: first.claims });
  });

  it('reports an expired link as expired, still naming its account', async () => {
    const { token } = await signer.sign(claims, now);
    const check = await signer.verify(token, claims.expiresAt);
    expect(check.status).toBe('expired');
    expect(check.status !== 'invalid' && check.claims.accountId).toBe(claims.accountId);
    expect((await signer.verify(token, new Date(claims.expiresAt.getTime() - 1000))).status).toBe('valid');
  });

  it('refuses a link signed under another secret, with changed claims, or without a signature', async () => {
    const { token } = await signer.sign(claims, now);
    const [head, payload, signature] = token.split('.');
    const decoded = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const widened = Buffer.from(JSON.stringify({ ...decoded, scope: 'global' })).toString('base64url');
    const unsigned = Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url');
    const candidates = [
      (await linkSigner('x'.repeat(40)).sign(claims, now)).token,
      `${head}.${widened}.${signature}`,
      `${unsigned}.${payload}.`,
      `${head}.${payload}`,
      '',
    ];
    for (const candidate of candidates) expect(await signer.verify(candidate, now)).toEqual({ status: 'invalid' });
  });
});
