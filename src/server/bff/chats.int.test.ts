import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BffChat, ChatPage } from '../../contract/bff-chats.ts';
import { channelClient } from '../testing/channel-client.ts';
import { openFrame } from '../testing/frames.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { activeChannel } from '../testing/messaging.ts';
import { databaseKind } from '../testing/test-database.ts';

const MINUTE = 60_000;

describe(`the chat list of the chat frame (${databaseKind()})`, () => {
  const clock = new ManualClock();
  let t: TestGateway;
  let a: { accountId: string; token: string };
  let b: { accountId: string; token: string };
  let whatsapp: string;
  let viber: string;
  let global: string;

  const inbound = async (channelId: string, chat: Record<string, string>, text: string, token = a.token) => {
    const res = await t.call('POST', `/v2/sandbox/channels/${channelId}/inbound`, { token, body: { ...chat, text } });
    if (res.statusCode !== 201) throw new Error(res.body);
    return res.json().data as { message_id: string; chat_id: string };
  };
  const wa = (n: number, name?: string) => ({ chat_type: 'whatsapp', chat_id: `7900000000${n}`, ...(name ? { name } : {}) });
  const list = async (token: string, query = '') => {
    const res = await t.call('GET', `/bff/chats${query}`, { token });
    if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
    return res.json().data as ChatPage;
  };
  /** Every page of a listing, following next_cursor. */
  const allPages = async (token: string, query: string, limit: number) => {
    const seen: BffChat[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: ChatPage = await list(token, `?limit=${limit}${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(page.chats.length).toBeLessThanOrEqual(limit);
      seen.push(...page.chats);
      cursor = page.next_cursor;
      pages++;
    } while (cursor && pages < 50);
    return seen;
  };
  const numbers = (chats: BffChat[]) => chats.map((c) => c.chat_id);

  beforeAll(async () => {
    t = await startTestGateway({ clock });
    a = await t.newAccount('A');
    b = await t.newAccount('B');
    whatsapp = await activeChannel(t, channelClient(t, a.token), 'whatsapp');
    viber = await activeChannel(t, channelClient(t, a.token), 'viber');
    await t.call('POST', '/v2/contacts', { token: a.token, body: { data: [{ chat_type: 'whatsapp', chat_id: '79000000002', name: 'Zoe From The CRM' }] } });
    // Chats 1..5 on whatsapp, one minute apart; chat 3 answered by the CRM; 6, 7, 8 at one instant (ties broken by id).
    for (const n of [1, 2, 3, 4, 5]) {
      await inbound(whatsapp, wa(n, `Customer ${n}`), n === 4 ? 'where is my 100% refund?' : `hello ${n}`);
      clock.advance(MINUTE);
    }
    const reply = await t.call('POST', '/v2/messages', {
      token: a.token,
      body: { channel_id: whatsapp, recipient: { chat_type: 'whatsapp', chat_id: '79000000003' }, text: 'answered' },
    });
    expect(reply.statusCode).toBe(201);
    clock.advance(MINUTE);
    for (const n of [6, 7, 8]) await inbound(whatsapp, wa(n), 'same instant');
    clock.advance(MINUTE);
    await inbound(viber, { chat_type: 'viber', chat_id: '380500000001', name: 'Viber Vic' }, 'from viber');
    clock.advance(MINUTE);
    const bChannel = await activeChannel(t, channelClient(t, b.token), 'whatsapp');
    await inbound(bChannel, wa(1, 'B customer'), 'not for A', b.token);
    global = await openFrame(t, a.token, 'chats', { user: { id: 'agent-1' }, scope: 'global' });
  });
  afterAll(() => t.close());

  it('lists unanswered chats first, then by last activity, each with its channel, names, last message and count', async () => {
    const page = await list(global);
    // Unanswered, newest first (6, 7, 8 share an instant), then the answered chat 3.
    expect(numbers(page.chats).slice(0, 4)).toEqual(['380500000001', ...numbers(page.chats).slice(1, 4)]);
    expect(numbers(page.chats).slice(1, 4).sort()).toEqual(['79000000006', '79000000007', '79000000008']);
    expect(numbers(page.chats).slice(4)).toEqual(['79000000005', '79000000004', '79000000002', '79000000001', '79000000003']);
    expect(page.next_cursor).toBeNull();

    const zoe = page.chats.find((c) => c.chat_id === '79000000002')!;
    expect(zoe).toEqual({
      chat_ref: expect.any(String),
      channel_id: whatsapp,
      transport: 'whatsapp',
      channel_name: expect.toSatisfy((v) => v === null || typeof v === 'string'),
      chat_type: 'whatsapp',
      chat_id: '79000000002',
      username: null,
      phone: null,
      name: 'Zoe From The CRM',
      contact_name: 'Zoe From The CRM',
      messenger_name: 'Customer 2',
      unanswered_count: 1,
      last_activity_at: new Date(Date.UTC(2030, 0, 1) + MINUTE).toISOString(),
      last_message: {
        message_id: expect.any(String),
        direction: 'inbound',
        status: 'sent',
        kind: 'text',
        text: 'hello 2',
        attachment_name: null,
        created_at: new Date(Date.UTC(2030, 0, 1) + MINUTE).toISOString(),
        deleted: false,
      },
    });
    const answered = page.chats.find((c) => c.chat_id === '79000000003')!;
    expect(answered).toMatchObject({ name: 'Customer 3', unanswered_count: 0, last_message: { direction: 'outbound', text: 'answered' } });
  });

  it('pages through the list without gaps or repeats, whatever the page size', async () => {
    const whole = (await list(global)).chats.map((c) => c.chat_ref);
    for (const limit of [1, 2, 3, 4]) {
      const paged = (await allPages(global, '', limit)).map((c) => c.chat_ref);
      expect(paged, `limit ${limit}`).toEqual(whole);
    }
    const filtered = await allPages(global, `&channel_id=${whatsapp}`, 2);
    expect(filtered).toHaveLength(8);
  });

  it('counts replies: a reply resets the counter, one with reset_unanswered false keeps it', async () => {
    await inbound(whatsapp, wa(5), 'again');
    const before = (await list(global)).chats.find((c) => c.chat_id === '79000000005')!;
    expect(before.unanswered_count).toBe(2);
    const keep = await t.call('POST', '/v2/messages', {
      token: a.token,
      body: { channel_id: whatsapp, recipient: { chat_type: 'whatsapp', chat_id: '79000000005' }, text: 'note', reset_unanswered: false },
    });
    expect(keep.statusCode).toBe(201);
    expect((await list(global)).chats.find((c) => c.chat_id === '79000000005')!.unanswered_count).toBe(2);
    await t.call('POST', '/bff/messages', {
      token: global,
      body: { channel_id: whatsapp, recipient: { chat_type: 'whatsapp', chat_id: '79000000005' }, text: 'done' },
    });
    const after = await list(global);
    expect(after.chats.find((c) => c.chat_id === '79000000005')).toMatchObject({ unanswered_count: 0, last_message: { text: 'done' } });
    // Answered now, it sorts after every unanswered chat.
    expect(after.chats.findIndex((c) => c.chat_id === '79000000005')).toBeGreaterThan(after.chats.findIndex((c) => c.chat_id === '79000000001'));
  });

  it('searches names, numbers and the last message case-insensitively, taking % and _ literally', async () => {
    const q = async (text: string) => numbers((await list(global, `?q=${encodeURIComponent(text)}`)).chats).sort();
    expect(await q('zoe from')).toEqual(['79000000002']);
    expect(await q('CUSTOMER 4')).toEqual(['79000000004']);
    expect(await q('00000001')).toEqual(['380500000001', '79000000001']);
    expect(await q('100% REFUND')).toEqual(['79000000004']);
    expect(await q('%')).toEqual(['79000000004']);
    expect(await q('_')).toEqual([]);
    expect(await q('viber vic')).toEqual(['380500000001']);
    expect(await q('not for a')).toEqual([]);
  });

  it('filters by channel', async () => {
    expect(numbers((await list(global, `?channel_id=${viber}`)).chats)).toEqual(['380500000001']);
  });

  it('gives a card session only the chats of its card', async () => {
    const card = await openFrame(t, a.token, 'chats', {
      user: { id: 'agent-2' },
      scope: 'card',
      chats: [{ chat_type: 'whatsapp', chat_id: '79000000002' }, { chat_type: 'viber', chat_id: '380500000001' }, { chat_type: 'whatsapp', chat_id: '79999999999' }],
    });
    expect(numbers((await list(card)).chats).sort()).toEqual(['380500000001', '79000000002']);
    expect(numbers((await list(card, '?q=customer')).chats)).toEqual(['79000000002']);
    const paged = await allPages(card, '', 1);
    expect(numbers(paged).sort()).toEqual(['380500000001', '79000000002']);
  });

  it('sums the unanswered messages of the session’s chats for the badge', async () => {
    const summary = async (token: string) => (await t.call('GET', '/bff/chats/unanswered', { token })).json().data;
    const all = (await list(global)).chats;
    const unanswered = all.filter((c) => c.unanswered_count > 0);
    expect(unanswered.length).toBeGreaterThan(3);
    expect(await summary(global)).toEqual({ total: unanswered.reduce((n, c) => n + c.unanswered_count, 0), chats: unanswered.length });
    const card = await openFrame(t, a.token, 'chats', {
      user: { id: 'agent-2' },
      scope: 'card',
      chats: [{ chat_type: 'whatsapp', chat_id: '79000000002' }, { chat_type: 'whatsapp', chat_id: '79000000003' }],
    });
    expect(await summary(card)).toEqual({ total: 1, chats: 1 });
    const bGlobal = await openFrame(t, b.token, 'chats', { user: { id: 'agent-1' }, scope: 'global' });
    expect(await summary(bGlobal)).toEqual({ total: 1, chats: 1 });
    const channels = await openFrame(t, a.token, 'channels', {});
    expect((await t.call('GET', '/bff/chats/unanswered', { token: channels })).statusCode).toBe(403);
  });

  it("keeps accounts apart: B's sessions see only B's chats", async () => {
    const bGlobal = await openFrame(t, b.token, 'chats', { user: { id: 'agent-1' }, scope: 'global' });
    const chats = (await list(bGlobal)).chats;
    expect(chats.map((c) => c.messenger_name)).toEqual(['B customer']);
    expect(numbers((await list(bGlobal, `?channel_id=${whatsapp}`)).chats)).toEqual([]);
  });

  it('refuses a channels session, a bad cursor and a limit over the maximum', async () => {
    const channels = await openFrame(t, a.token, 'channels', {});
    const res = await t.call('GET', '/bff/chats', { token: channels });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('FORBIDDEN');
    for (const cursor of ['nope', Buffer.from('["c",1,"2030-02-31T00:00:00.000000Z","00000000-0000-4000-8000-000000000000"]').toString('base64url')]) {
      const bad = await t.call('GET', `/bff/chats?cursor=${cursor}`, { token: global });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ error: 'VALIDATION_ERROR', data: { fields: [{ field: 'cursor' }] } });
    }
    expect((await t.call('GET', '/bff/chats?limit=101', { token: global })).statusCode).toBe(400);
    expect((await t.call('GET', '/bff/chats', {})).statusCode).toBe(401);
  });
});

describe(`the rate limit of the frames' API (${databaseKind()})`, () => {
  const clock = new ManualClock();
  let t: TestGateway;
  let token: string;

  beforeAll(async () => {
    t = await startTestGateway({ clock });
    token = (await t.newAccount('A')).token;
  });
  afterAll(() => t.close());

  it("counts the chat, history, template and connect routes in the session's window", async () => {
    const session = await openFrame(t, token, 'chats', { user: { id: 'agent-1' }, scope: 'global' });
    for (let i = 0; i < 300; i++) await t.call('GET', '/bff/transports', { token: session });
    for (const url of ['/bff/chats', '/bff/chats/00000000-0000-4000-8000-000000000000/messages', '/bff/templates', '/bff/channels']) {
      const res = await t.call('GET', url, { token: session });
      expect(res.statusCode, url).toBe(429);
      expect(res.json().error).toBe('TOO_MANY_REQUESTS');
    }
    clock.advance(5_000);
    expect((await t.call('GET', '/bff/chats', { token: session })).statusCode).toBe(200);
  });

  it('limits link exchanges per address, before the link is even read', async () => {
    clock.advance(5_000);
    for (let i = 0; i < 300; i++) expect((await t.call('POST', '/bff/session', { body: { link: 'forged' } })).statusCode).toBe(401);
    const res = await t.call('POST', '/bff/session', { body: { link: 'forged' } });
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBeDefined();
    const other = await t.gateway.app.inject({ method: 'POST', url: '/bff/session', payload: { link: 'forged' }, remoteAddress: '10.0.0.9' });
    expect(other.statusCode).toBe(401);
    clock.advance(5_000);
  });
});
