import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatAnswered, MessageMatches } from '../../contract/bff-chat-tools.ts';
import type { ChatPage } from '../../contract/bff-chats.ts';
import type { StreamEvent } from '../../contract/realtime.ts';
import { channelClient } from '../testing/channel-client.ts';
import { frameClient, type FrameClient } from '../testing/frame-client.ts';
import { openFrame } from '../testing/frames.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { activeChannel } from '../testing/messaging.ts';
import { databaseKind } from '../testing/test-database.ts';

type UnansweredUpdate = Extract<StreamEvent, { name: 'chat.unanswered_update' }>;

/** Marking a chat answered without sending, and finding a chat's messages by text, from the chat frame. */
describe(`an agent's tools on one chat (${databaseKind()})`, () => {
  let t: TestGateway;
  let a: { accountId: string; token: string };
  let b: { accountId: string; token: string };
  let channelId: string;
  let global: string;
  let live: FrameClient;
  let bobRef: string;
  let eveRef: string;

  const inbound = async (username: string, text: string) => {
    const res = await t.call('POST', `/v2/sandbox/channels/${channelId}/inbound`, { token: a.token, body: { chat_type: 'telegram', username, name: username, text } });
    expect(res.statusCode).toBe(201);
  };
  const markAnswered = (token: string, ref: string) => t.call('POST', `/bff/chats/${ref}/answered`, { token });
  const search = async (q: string, extra = '', token = global, ref = bobRef) =>
    t.call('GET', `/bff/chats/${ref}/search?q=${encodeURIComponent(q)}${extra}`, { token });
  const matches = async (q: string, extra = '') => {
    const res = await search(q, extra);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as MessageMatches;
  };
  const unanswered = async (token = global) => (await t.call('GET', '/bff/chats/unanswered', { token })).json().data as { total: number; chats: number };

  beforeAll(async () => {
    t = await startTestGateway({ env: { PORT: '0' } });
    const baseUrl = await t.gateway.listen();
    a = await t.newAccount('A');
    b = await t.newAccount('B');
    channelId = await activeChannel(t, channelClient(t, a.token), 'telegram');
    for (const text of ['Hello there', 'my order 100% late', 'ORDER number two', 'nothing here', 'where is my order?', 'a_b literal']) await inbound('bob', text);
    await inbound('eve', 'order from eve');
    global = await openFrame(t, a.token, 'chats', { user: { id: 'agent-7' }, scope: 'global' });
    const chats = (await t.call('GET', '/bff/chats', { token: global })).json().data as ChatPage;
    bobRef = chats.chats.find((c) => c.username === 'bob')!.chat_ref;
    eveRef = chats.chats.find((c) => c.username === 'eve')!.chat_ref;
    live = frameClient(baseUrl, await openFrame(t, a.token, 'chats', { user: { id: 'u2' }, scope: 'global' }));
    await live.connect();
  });
  afterAll(async () => {
    live?.close();
    await t.close();
  });

  it('marks a waiting chat answered: its count and the totals drop, and other frames hear it', async () => {
    expect(await unanswered()).toEqual({ total: 7, chats: 2 });
    const res = await markAnswered(global, bobRef);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ chat_ref: bobRef, unanswered_count: 0, changed: true } satisfies ChatAnswered);
    expect(await unanswered()).toEqual({ total: 1, chats: 1 });
    const listed = (await t.call('GET', '/bff/chats', { token: global })).json().data as ChatPage;
    expect(listed.chats.find((c) => c.chat_ref === bobRef)).toMatchObject({ unanswered_count: 0 });

    await live.until(() => live.events.some((e) => e.name === 'chat.unanswered_update' && e.payload.chat_ref === bobRef && e.payload.unanswered_count === 0), 'the new count');
    const answered = live.events.find((e) => e.name === 'chat.answered');
    expect(answered?.payload).toMatchObject({ chat_ref: bobRef, channel_id: channelId, chat_type: 'telegram', crm_user_id: 'agent-7' });
    const update = live.events.find((e): e is UnansweredUpdate => e.name === 'chat.unanswered_update' && e.payload.unanswered_count === 0)!;
    expect(update.position).toBe(answered!.position);
  });

  it('answers without a change, and tells nobody, for a chat that was not waiting', async () => {
    const before = live.events.length;
    const res = await markAnswered(global, bobRef);
    expect(res.json().data).toEqual({ chat_ref: bobRef, unanswered_count: 0, changed: false });
    await inbound('eve', 'a later one');
    await live.until(() => live.events.some((e) => e.name === 'message.add' && e.payload.text === 'a later one'), 'the later message');
    expect(live.events.slice(before).some((e) => e.name === 'chat.answered')).toBe(false);
  });

  it('lets only sessions that may write to the chat mark it', async () => {
    const card = await openFrame(t, a.token, 'chats', { user: { id: 'agent-7' }, scope: 'card', chats: [{ chat_type: 'telegram', username: 'bob' }] });
    expect((await markAnswered(card, eveRef)).statusCode).toBe(404);
    const foreign = await openFrame(t, b.token, 'chats', { user: { id: 'agent-7' }, scope: 'global' });
    expect((await markAnswered(foreign, eveRef)).statusCode).toBe(404);

    await t.call('PATCH', '/v2/settings', { token: a.token, body: { user_roles: [{ channel_id: channelId, user_id: 'aud', role: 'auditor' }] } });
    const auditor = await openFrame(t, a.token, 'chats', { user: { id: 'aud' }, scope: 'global' });
    const nobody = await openFrame(t, a.token, 'chats', { user: { id: 'nobody' }, scope: 'global' });
    expect((await markAnswered(auditor, eveRef)).statusCode).toBe(403);
    expect((await markAnswered(nobody, eveRef)).statusCode).toBe(404);
    // An auditor may still search what they read; a user without a role on the channel may not.
    expect((await search('order', '', auditor, eveRef)).statusCode).toBe(200);
    expect((await search('order', '', nobody, eveRef)).statusCode).toBe(404);
    await t.call('PATCH', '/v2/settings', { token: a.token, body: { user_roles: [] } });
    expect(await unanswered()).toEqual({ total: 2, chats: 1 });
  });

  it("finds a chat's messages by text, case-insensitively, newest first, a page at a time", async () => {
    const first = await matches('order', '&limit=2');
    expect(first.messages.map((m) => m.text)).toEqual(['where is my order?', 'ORDER number two']);
    expect(first.messages.every((m) => m.chat_ref === bobRef)).toBe(true);
    const second = await matches('order', `&limit=2&cursor=${encodeURIComponent(first.next_cursor!)}`);
    expect(second.messages.map((m) => m.text)).toEqual(['my order 100% late']);
    expect(second.next_cursor).toBeNull();
  });

  it('takes the query literally, and finds nothing outside the session', async () => {
    expect((await matches('0%')).messages.map((m) => m.text)).toEqual(['my order 100% late']);
    expect((await matches('a_b')).messages.map((m) => m.text)).toEqual(['a_b literal']);
    expect((await matches('r_n')).messages).toEqual([]);
    await inbound('eve', 'Мой ЗАКАЗ пришёл');
    const cyrillic = await search('заказ', '', global, eveRef);
    expect((cyrillic.json().data as MessageMatches).messages.map((m) => m.text)).toEqual(['Мой ЗАКАЗ пришёл']);
    const card = await openFrame(t, a.token, 'chats', { user: { id: 'agent-7' }, scope: 'card', chats: [{ chat_type: 'telegram', username: 'bob' }] });
    expect((await search('order', '', card, eveRef)).statusCode).toBe(404);
    expect((await search('order', '&cursor=nonsense')).statusCode).toBe(400);
    expect((await t.call('GET', `/bff/chats/${bobRef}/search`, { token: global })).statusCode).toBe(400);
  });
});
