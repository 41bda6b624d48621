import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatPage } from '../../contract/bff-chats.ts';
import type { MessageHits } from '../../contract/bff-message-search.ts';
import { channelClient } from '../testing/channel-client.ts';
import { openFrame } from '../testing/frames.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { activeChannel, settled } from '../testing/messaging.ts';
import { databaseKind } from '../testing/test-database.ts';

/** The chat list's search across message texts (GET /bff/messages/search), within what each reader may see. */
describe(`finding messages across chats (${databaseKind()})`, () => {
  let t: TestGateway;
  let a: { accountId: string; token: string };
  let telegram: string;
  let whatsapp: string;
  let global: string;
  const refs: Record<string, string> = {};

  const inbound = async (channelId: string, chat: Record<string, string>, text: string) => {
    const res = await t.call('POST', `/v2/sandbox/channels/${channelId}/inbound`, { token: a.token, body: { ...chat, text } });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json().data as { message_id: string }).message_id;
  };
  const bob = { chat_type: 'telegram', username: 'bob', name: 'Bob' };
  const eve = { chat_type: 'telegram', username: 'eve', name: 'Eve' };
  const wa = { chat_type: 'whatsapp', chat_id: '79001234567', name: 'Wanda' };
  const search = (token: string, q: string, extra = '') => t.call('GET', `/bff/messages/search?q=${encodeURIComponent(q)}${extra}`, { token });
  const hits = async (token: string, q: string, extra = '') => {
    const res = await search(token, q, extra);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as MessageHits;
  };
  const texts = (page: MessageHits) => page.hits.map((h) => h.text);

  beforeAll(async () => {
    t = await startTestGateway();
    a = await t.newAccount('A');
    telegram = await activeChannel(t, channelClient(t, a.token), 'telegram');
    whatsapp = await activeChannel(t, channelClient(t, a.token), 'whatsapp');
    await inbound(telegram, bob, 'Where is my parcel?');
    await inbound(telegram, eve, 'Привет, как дела?');
    await inbound(whatsapp, wa, 'parcel arrived, thanks');
    await inbound(telegram, bob, 'The parcel number is AB-7731');
    await inbound(telegram, bob, 'Thanks!');
    const other = await t.newAccount('B');
    const foreign = await activeChannel(t, channelClient(t, other.token), 'telegram');
    await t.call('POST', `/v2/sandbox/channels/${foreign}/inbound`, { token: other.token, body: { ...bob, text: 'parcel of another account' } });
    global = await openFrame(t, a.token, 'chats', { user: { id: 'agent-1' }, scope: 'global' });
    for (const c of ((await t.call('GET', '/bff/chats', { token: global })).json().data as ChatPage).chats) refs[c.messenger_name!] = c.chat_ref;
  });
  afterAll(async () => {
    await t.close();
  });

  it('finds the words in older messages of every chat, newest first, each hit with its chat', async () => {
    const page = await hits(global, 'PARC');
    expect(texts(page)).toEqual(['The parcel number is AB-7731', 'parcel arrived, thanks', 'Where is my parcel?']);
    expect(page.hits.map((h) => h.chat_ref)).toEqual([refs.Bob, refs.Wanda, refs.Bob]);
    expect(page.chats.map((c) => c.chat_ref).sort()).toEqual([refs.Bob, refs.Wanda].sort());
    expect(page.chats.find((c) => c.chat_ref === refs.Bob)).toMatchObject({ name: 'Bob', transport: 'telegram', last_message: { text: 'Thanks!' } });
    expect(page.next_cursor).toBeNull();
    // Every word must start a word of the text, in any order; none of another account's messages.
    expect(texts(await hits(global, 'numb parc'))).toEqual(['The parcel number is AB-7731']);
    expect(texts(await hits(global, 'ab-77'))).toEqual(['The parcel number is AB-7731']);
    expect(texts(await hits(global, 'arcel'))).toEqual([]);
  });

  it('finds Russian words in any case', async () => {
    expect(texts(await hits(global, 'Привет'))).toEqual(['Привет, как дела?']);
    expect(texts(await hits(global, 'ДЕЛ'))).toEqual(['Привет, как дела?']);
  });

  it('takes what the user types as words, never as search syntax', async () => {
    for (const q of ["parcel' & !", 'parcel:*', '(parcel | thanks)', 'parcel <-> number', '\\parcel']) expect(texts(await hits(global, q)).length, q).toBeGreaterThan(0);
    expect(await hits(global, '&|!()')).toEqual({ hits: [], chats: [], next_cursor: null });
    expect((await search(global, '')).statusCode).toBe(400);
    expect((await search(global, 'parcel', '&cursor=nonsense')).statusCode).toBe(400);
  });

  it('pages with the cursor, newest first, without repeats', async () => {
    const first = await hits(global, 'parcel', '&limit=2');
    expect(texts(first)).toEqual(['The parcel number is AB-7731', 'parcel arrived, thanks']);
    expect(first.next_cursor).not.toBeNull();
    const second = await hits(global, 'parcel', `&limit=2&cursor=${encodeURIComponent(first.next_cursor!)}`);
    expect(texts(second)).toEqual(['Where is my parcel?']);
    expect(second.chats.map((c) => c.chat_ref)).toEqual([refs.Bob]);
    expect(second.next_cursor).toBeNull();
  });

  it('shows a card only its own chats, and a user only the channels of its roles', async () => {
    const card = await openFrame(t, a.token, 'chats', { user: { id: 'agent-2' }, scope: 'card', chats: [{ chat_type: 'telegram', username: 'bob' }] });
    expect(texts(await hits(card, 'parcel'))).toEqual(['The parcel number is AB-7731', 'Where is my parcel?']);
    expect(texts(await hits(card, 'привет'))).toEqual([]);

    const roles = [{ channel_id: whatsapp, user_id: 'wa-only', role: 'manager', allow_get_new_clients: false }];
    expect((await t.call('PATCH', '/v2/settings', { token: a.token, body: { user_roles: roles, hide_phone_numbers_for_user_ids: ['wa-only'] } })).statusCode).toBe(200);
    const limited = await openFrame(t, a.token, 'chats', { user: { id: 'wa-only' }, scope: 'global' });
    const page = await hits(limited, 'parcel');
    expect(texts(page)).toEqual(['parcel arrived, thanks']);
    // Phone numbers stay hidden from this user in the hits' chats as in the list.
    expect(page.chats).toHaveLength(1);
    expect(page.chats[0]!.chat_id).toBe(`hidden:${refs.Wanda}`);
    expect(JSON.stringify(page.chats)).not.toContain('79001234567');
    await t.call('PATCH', '/v2/settings', { token: a.token, body: { user_roles: [], hide_phone_numbers_for_user_ids: [] } });
  });

  it('never finds a deleted message', async () => {
    const sent = await t.call('POST', '/v2/messages', { token: a.token, body: { channel_id: whatsapp, recipient: { chat_type: 'whatsapp', chat_id: wa.chat_id }, text: 'secret voucher code' } });
    expect(sent.statusCode, sent.body).toBe(201);
    const { id } = await settled(t, sent.json().data.request_id);
    expect(texts(await hits(global, 'voucher'))).toEqual(['secret voucher code']);
    const deleted = await t.call('DELETE', `/v2/messages/${id}`, { token: a.token });
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
    expect(texts(await hits(global, 'voucher'))).toEqual([]);
  });
});
