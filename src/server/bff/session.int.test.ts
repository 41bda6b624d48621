import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLink, openFrame } from '../testing/frames.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { databaseKind } from '../testing/test-database.ts';

const MINUTE = 60_000;

describe(`frame sessions (${databaseKind()})`, () => {
  const clock = new ManualClock();
  let t: TestGateway;
  let a: { accountId: string; token: string };
  let b: { accountId: string; token: string };
  const card = {
    user: { id: 'crm-7', name: 'Ann Agent' },
    scope: 'card',
    chats: [
      { chat_type: 'telegram', username: 'Bob', contact_name: 'Bob Buyer' },
      { chat_type: 'whatsapp', chat_id: '79990000001' },
    ],
    active_chat: { chat_type: 'whatsapp', chat_id: '79990000001' },
    options: { lang: 'ru', theme: 'dark' },
  } as const;

  beforeAll(async () => {
    t = await startTestGateway({ clock });
    a = await t.newAccount('A');
    b = await t.newAccount('B');
    await t.call('PUT', '/v2/embedding/origins', { token: a.token, body: { origins: ['https://crm.example.com'] } });
  });
  afterAll(() => t.close());

  const bff = (method: 'GET' | 'POST' | 'DELETE', url: string, token: string | undefined, body?: unknown) =>
    t.call(method, `/bff${url}`, { ...(token === undefined ? {} : { token }), ...(body === undefined ? {} : { body }) });

  it('exchanges a link once for a session that says who the frame is and what it may touch', async () => {
    const { link } = await createLink(t, a.token, 'chats', card);
    const res = await bff('POST', '/session', undefined, { link });
    expect(res.statusCode).toBe(201);
    const { token, expires_at, session } = res.json().data;
    expect(token).toMatch(/^mgs_[0-9a-f]{32}_[\w-]{43}$/);
    expect(Date.parse(expires_at) - clock.now().getTime()).toBe(15 * MINUTE);
    expect(res.headers['cache-control']).toBe('no-store');

    const me = await bff('GET', '/session', token);
    expect(me.statusCode).toBe(200);
    expect(me.json().data).toEqual({
      kind: 'chats',
      account_id: a.accountId,
      user: { id: 'crm-7', name: 'Ann Agent' },
      scope: 'card',
      chats: [
        { chat_type: 'telegram', username: 'Bob' },
        { chat_type: 'whatsapp', chat_id: '79990000001' },
      ],
      active_chat: { chat_type: 'whatsapp', chat_id: '79990000001' },
      transport: null,
      channel_id: null,
      options: { lang: 'ru', theme: 'dark' },
      use_events: { messages: true, deals: true },
      client_type: null,
      allowed_origins: ['https://crm.example.com'],
      expires_at,
    });
    // The exchange's answer carries the same details, so that the frame starts without asking for them.
    expect(session).toEqual(me.json().data);

    const again = await bff('POST', '/session', undefined, { link });
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual({ error: 'UNAUTHORIZED', description: 'The link was already used' });
  });

  it('refuses tampered and expired links with 401', async () => {
    const { link } = await createLink(t, a.token, 'chats', card);
    const [head, payload, signature] = link.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const widened = Buffer.from(JSON.stringify({ ...claims, scope: 'global', chats: [] })).toString('base64url');
    const flipped = signature!.slice(0, -2) + (signature!.endsWith('AA') ? 'BB' : 'AA');
    for (const forged of [`${head}.${widened}.${signature}`, `${head}.${payload}.${flipped}`, `${head}.${payload}.`, 'not-a-link']) {
      const res = await bff('POST', '/session', undefined, { link: forged });
      expect(res.statusCode, forged).toBe(401);
      expect(res.json().error).toBe('UNAUTHORIZED');
    }

    const late = await createLink(t, a.token, 'chats', card);
    clock.advance(60 * MINUTE);
    const res = await bff('POST', '/session', undefined, { link: late.link });
    expect(res.statusCode).toBe(401);
    expect(res.json().description).toBe('The link has expired');
  });

  it('refuses missing, malformed, tampered and expired session tokens with 401', async () => {
    const token = await openFrame(t, a.token, 'chats', card);
    const tampered = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
    for (const candidate of [undefined, 'mgs_nope', tampered, a.token]) {
      const res = await bff('GET', '/session', candidate);
      expect(res.statusCode, String(candidate)).toBe(401);
    }
    clock.advance(15 * MINUTE);
    expect((await bff('GET', '/session', token)).statusCode).toBe(401);
  });

  it('renews while the frame is open, never past twelve hours after the exchange', async () => {
    const token = await openFrame(t, a.token, 'chats', card);
    const openedAt = clock.now().getTime();
    const cap = openedAt + 12 * 60 * MINUTE;
    let lastExpiry = 0;
    for (;;) {
      clock.advance(10 * MINUTE);
      const renewed = await bff('POST', '/session/renew', token);
      if (renewed.statusCode !== 200) {
        expect(renewed.statusCode).toBe(401);
        break;
      }
      lastExpiry = Date.parse(renewed.json().data.expires_at);
      expect(lastExpiry).toBe(Math.min(clock.now().getTime() + 15 * MINUTE, cap));
    }
    // Renewed every 10 minutes, it lived exactly until its cap, though one lifetime is 15 minutes.
    expect(lastExpiry).toBe(cap);
    expect(clock.now().getTime()).toBe(cap);
  });

  it('ends a session on DELETE /bff/session', async () => {
    const token = await openFrame(t, a.token, 'chats', card);
    expect((await bff('DELETE', '/session', token)).statusCode).toBe(200);
    expect((await bff('GET', '/session', token)).statusCode).toBe(401);
  });

  it("lets the account end one CRM user's sessions, or all of them", async () => {
    const ann = await openFrame(t, a.token, 'chats', card);
    const bob = await openFrame(t, a.token, 'chats', { ...card, user: { id: 'crm-8' } });
    const other = await openFrame(t, b.token, 'chats', card);

    const one = await t.call('DELETE', '/v2/embedding/sessions?user_id=crm-7', { token: a.token });
    expect(one.json().data).toEqual({ revoked: 1 });
    expect((await bff('GET', '/session', ann)).statusCode).toBe(401);
    expect((await bff('GET', '/session', bob)).statusCode).toBe(200);

    const all = await t.call('DELETE', '/v2/embedding/sessions', { token: a.token });
    expect(all.json().data).toEqual({ revoked: 1 });
    expect((await bff('GET', '/session', bob)).statusCode).toBe(401);
    expect((await bff('GET', '/session', other)).statusCode).toBe(200);
  });

  it('has its own rate-limit window per session', async () => {
    const first = await openFrame(t, a.token, 'chats', card);
    const second = await openFrame(t, a.token, 'chats', card);
    const res = await bff('GET', '/session', first);
    expect(res.headers['ratelimit-policy']).toBe('"default";q=300;w=5');
    let last = res;
    for (let i = 0; i < 300; i++) last = await bff('GET', '/transports', first);
    expect(last.statusCode).toBe(429);
    expect(last.json().error).toBe('TOO_MANY_REQUESTS');
    expect(last.headers['retry-after']).toBeDefined();
    expect((await bff('GET', '/transports', second)).statusCode).toBe(200);
  });

  describe('scope', () => {
    it('answers a card session for chats of its card, and 404 for any other chat', async () => {
      await t.call('POST', '/v2/contacts', {
        token: a.token,
        body: { data: [{ chat_type: 'whatsapp', chat_id: '79990000002', name: 'Not on the card' }] },
      });
      const token = await openFrame(t, a.token, 'chats', card);
      const mine = await bff('POST', '/contacts/lookup', token, { chats: [{ chat_type: 'telegram', username: 'bob' }] });
      expect(mine.statusCode).toBe(200);
      expect(mine.json().data).toEqual([{ chat_type: 'telegram', username: 'bob', name: 'Bob Buyer' }]);

      const foreign = await bff('POST', '/contacts/lookup', token, { chats: [{ chat_type: 'whatsapp', chat_id: '79990000002' }] });
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json().error).toBe('CHAT_NOT_FOUND');
      const sameIdOtherType = await bff('POST', '/contacts/lookup', token, { chats: [{ chat_type: 'viber', chat_id: '79990000001' }] });
      expect(sameIdOtherType.statusCode).toBe(404);
    });

    it('lets a global session look up any chat of its account, and none of another account', async () => {
      await t.call('POST', '/v2/contacts', { token: b.token, body: { data: [{ chat_type: 'whatsapp', chat_id: '79990000003', name: 'B only' }] } });
      const token = await openFrame(t, a.token, 'chats', { user: { id: 'crm-7' }, scope: 'global' });
      const res = await bff('POST', '/contacts/lookup', token, {
        chats: [
          { chat_type: 'whatsapp', chat_id: '79990000002' },
          { chat_type: 'whatsapp', chat_id: '79990000003' },
        ],
      });
      expect(res.json().data).toEqual([{ chat_type: 'whatsapp', chat_id: '79990000002', name: 'Not on the card' }]);
    });

    it('keeps a channels session to channel operations', async () => {
      const token = await openFrame(t, a.token, 'channels', { transport: 'whatsapp' });
      const me = await bff('GET', '/session', token);
      expect(me.json().data).toMatchObject({ kind: 'channels', scope: null, transport: 'whatsapp', user: null });
      expect((await bff('GET', '/channels', token)).statusCode).toBe(200);
      const chats = await bff('POST', '/contacts/lookup', token, { chats: [{ chat_type: 'whatsapp', chat_id: '79990000002' }] });
      expect(chats.statusCode).toBe(403);
      expect(chats.json().error).toBe('FORBIDDEN');
    });

    it('carries a channels link’s options (language and theme) to its session', async () => {
      const token = await openFrame(t, a.token, 'channels', { options: { lang: 'ru', theme: 'dark' } });
      expect((await bff('GET', '/session', token)).json().data.options).toEqual({ lang: 'ru', theme: 'dark' });
      const plain = await openFrame(t, a.token, 'channels', {});
      expect((await bff('GET', '/session', plain)).json().data.options).toEqual({});
      const odd = await t.call('POST', '/v2/iframe-links/channels', { token: a.token, body: { options: { lang: 'Russian' } } });
      expect(odd.statusCode).toBe(400);
      expect(odd.json().error).toBe('VALIDATION_ERROR');
    });
  });

  it('lists the transports with what each can do', async () => {
    const token = await openFrame(t, a.token, 'channels', {});
    const res = await bff('GET', '/transports', token);
    const vk = res.json().data.find((x: { transport: string }) => x.transport === 'vk');
    expect(vk).toMatchObject({ transport: 'vk', creatable: true, capabilities: { connect: 'iframe' } });
    expect(res.json().data).toHaveLength(10);
  });
});
