import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLink } from '../testing/frames.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { databaseKind } from '../testing/test-database.ts';

/** The frame page's policy ends with who may frame it; the directives before it keep its own resources to the gateway. */
const frameAncestorsOf = (csp: unknown) => String(csp).split('; ').find((d) => d.startsWith('frame-ancestors '));

describe(`iframe links and allowed origins (${databaseKind()})`, () => {
  const clock = new ManualClock();
  let t: TestGateway;
  let a: { accountId: string; token: string };
  let b: { accountId: string; token: string };

  beforeAll(async () => {
    t = await startTestGateway({ clock, env: { PUBLIC_URL: 'https://gw.example.com' } });
    a = await t.newAccount('A');
    b = await t.newAccount('B');
  });
  afterAll(() => t.close());

  const card = { user: { id: 'u1', name: 'Ann' }, scope: 'card', chats: [{ chat_type: 'whatsapp', chat_id: '79990000001' }] } as const;

  it('creates a chats link: a signed URL to the frame page that expires in an hour', async () => {
    const res = await t.call('POST', '/v2/iframe-links/chats', { token: a.token, body: card });
    expect(res.statusCode).toBe(201);
    const { url, expires_at } = res.json().data;
    expect(url).toMatch(/^https:\/\/gw\.example\.com\/embed\/chats\?link=[\w.-]+$/);
    expect(Date.parse(expires_at) - clock.now().getTime()).toBe(3600_000);
  });

  it('creates a channels link, preselecting the transport of the channel to reconnect only when it exists in the account', async () => {
    const res = await t.call('POST', '/v2/iframe-links/channels', { token: a.token, body: { transport: 'vk' } });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.url).toMatch(/\/embed\/channels\?link=/);
    const missing = await t.call('POST', '/v2/iframe-links/channels', {
      token: a.token,
      body: { channel_id: '00000000-0000-4000-8000-000000000000' },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe('CHANNEL_NOT_FOUND');
  });

  it.each([
    [{ user: { id: 'u1' }, scope: 'card' }, 'chats', 'is required for the card scope'],
    [{ user: { id: 'u1' }, scope: 'global', chats: [{ chat_type: 'telegram', chat_id: '1' }] }, 'chats', 'is not allowed for the global scope'],
    [{ user: { id: 'u1' }, scope: 'card', chats: [{ chat_type: 'telegram' }] }, 'chats.0', 'exactly one of chat_id, username, phone is required'],
    [{ user: { id: 'u1' }, scope: 'card', chats: [{ chat_type: 'whatsapp', username: 'bob' }] }, 'chats.0', 'username is allowed only for telegram and max; use chat_id'],
    [
      { user: { id: 'u1' }, scope: 'card', chats: [{ chat_type: 'telegram', chat_id: '1' }], active_chat: { chat_type: 'telegram', chat_id: '2' } },
      'active_chat',
      'must be one of chats',
    ],
  ])('refuses %j with a 400 naming %s', async (body, field, message) => {
    const res = await t.call('POST', '/v2/iframe-links/chats', { token: a.token, body });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'VALIDATION_ERROR', data: { fields: [{ field, message }] } });
  });

  it('needs a client token', async () => {
    const res = await t.call('POST', '/v2/iframe-links/chats', { body: card });
    expect(res.statusCode).toBe(401);
  });

  it('keeps the allowed origins per account, normalized, and refuses what is not an exact https origin', async () => {
    const put = await t.call('PUT', '/v2/embedding/origins', {
      token: a.token,
      body: { origins: ['https://CRM.example.com:443/', 'https://crm.example.com:8443', 'http://localhost:3000'] },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json().data.origins).toEqual(['https://crm.example.com', 'https://crm.example.com:8443', 'http://localhost:3000']);
    expect((await t.call('GET', '/v2/embedding/origins', { token: a.token })).json().data.origins).toHaveLength(3);
    expect((await t.call('GET', '/v2/embedding/origins', { token: b.token })).json().data.origins).toEqual([]);

    const bad = await t.call('PUT', '/v2/embedding/origins', {
      token: a.token,
      body: { origins: ['http://crm.example.com', 'https://*.example.com', 'https://crm.example.com/app'] },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data.fields.map((f: { field: string }) => f.field)).toEqual(['origins.0', 'origins.1', 'origins.2']);
    const tooMany = await t.call('PUT', '/v2/embedding/origins', {
      token: a.token,
      body: { origins: Array.from({ length: 101 }, (_, i) => `https://crm${i}.example.com`) },
    });
    expect(tooMany.statusCode).toBe(403);
    expect(tooMany.json().error).toBe('TOO_MANY_ENTITIES');
  });

  describe('the frame page', () => {
    it("sends frame-ancestors with exactly the link's account's origins", async () => {
      await t.call('PUT', '/v2/embedding/origins', { token: a.token, body: { origins: ['https://crm-a.example.com', 'https://crm-a2.example.com'] } });
      await t.call('PUT', '/v2/embedding/origins', { token: b.token, body: { origins: ['https://crm-b.example.com'] } });
      const linkA = await createLink(t, a.token, 'chats', card);
      const linkB = await createLink(t, b.token, 'chats', card);

      const pageA = await t.call('GET', `/embed/chats?link=${linkA.link}`);
      expect(pageA.statusCode).toBe(200);
      expect(pageA.headers['content-type']).toMatch(/^text\/html/);
      expect(frameAncestorsOf(pageA.headers['content-security-policy'])).toBe('frame-ancestors https://crm-a.example.com https://crm-a2.example.com');
      expect(pageA.headers['x-frame-options']).toBeUndefined();
      expect(pageA.headers['cache-control']).toBe('no-store');
      const pageB = await t.call('GET', `/embed/chats?link=${linkB.link}`);
      expect(frameAncestorsOf(pageB.headers['content-security-policy'])).toBe('frame-ancestors https://crm-b.example.com');
    });

    it("lets no page frame an account that allowed no origin", async () => {
      const c = await t.newAccount('C');
      const link = await createLink(t, c.token, 'channels', {});
      const page = await t.call('GET', `/embed/channels?link=${link.link}`);
      expect(page.statusCode).toBe(200);
      expect(frameAncestorsOf(page.headers['content-security-policy'])).toBe("frame-ancestors 'none'");
    });

    it('answers a tampered, missing or mismatched link with 401 and a page nobody may frame', async () => {
      const { link } = await createLink(t, a.token, 'chats', card);
      const [head, payload, signature] = link.split('.');
      const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), sub: b.accountId })).toString('base64url');
      for (const url of [`/embed/chats?link=${head}.${forged}.${signature}`, '/embed/chats', `/embed/channels?link=${link}`]) {
        const page = await t.call('GET', url);
        expect(page.statusCode, url).toBe(401);
        expect(frameAncestorsOf(page.headers['content-security-policy'])).toBe("frame-ancestors 'none'");
        expect(page.headers['x-frame-options']).toBe('DENY');
      }
    });

    it("serves an expired link with 401, still framed only by the account's origins", async () => {
      const { link } = await createLink(t, a.token, 'chats', card);
      clock.advance(3600_000);
      const page = await t.call('GET', `/embed/chats?link=${link}`);
      expect(page.statusCode).toBe(401);
      expect(frameAncestorsOf(page.headers['content-security-policy'])).toBe('frame-ancestors https://crm-a.example.com https://crm-a2.example.com');
    });

    it("keeps frame-ancestors 'none' on every other route", async () => {
      for (const url of ['/healthz', '/v2/webhooks', '/bff/session', '/openapi.json', '/embed/other?link=x']) {
        const res = await t.call('GET', url, { token: a.token });
        expect(res.headers['content-security-policy'], url).toBe("frame-ancestors 'none'");
      }
    });
  });
});
