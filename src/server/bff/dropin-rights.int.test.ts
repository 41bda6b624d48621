import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BffChat, ChatPage } from '../../contract/bff-chats.ts';
import { channelClient } from '../testing/channel-client.ts';
import { frameClient, type FrameClient } from '../testing/frame-client.ts';
import { openFrame } from '../testing/frames.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { activeChannel } from '../testing/messaging.ts';
import { databaseKind } from '../testing/test-database.ts';

/** The account's rights (GET/PATCH /v2/settings) as the chat frame obeys them, over /bff and socket.io. */
describe(`rights in the chat frame (${databaseKind()})`, () => {
  let t: TestGateway;
  let baseUrl: string;
  let a: { accountId: string; token: string };
  let whatsapp: string;
  let viber: string;
  const frames: FrameClient[] = [];
  const WA_NUMBER = '79001234567';
  const VIBER_NUMBER = '380501112233';

  beforeAll(async () => {
    t = await startTestGateway({ env: { PORT: '0' } });
    baseUrl = await t.gateway.listen();
    a = await t.newAccount('A');
    whatsapp = await activeChannel(t, channelClient(t, a.token), 'whatsapp');
    viber = await activeChannel(t, channelClient(t, a.token), 'viber');
  });
  afterAll(async () => {
    frames.forEach((f) => f.close());
    await t.close();
  });

  const v2 = async (method: 'GET' | 'PATCH' | 'POST' | 'DELETE', url: string, body?: unknown) => {
    const res = await t.call(method, url, { token: a.token, body });
    return { status: res.statusCode, body: res.json() };
  };
  const inbound = async (channelId: string, chat: Record<string, string>, text: string) => {
    const res = await t.call('POST', `/v2/sandbox/channels/${channelId}/inbound`, { token: a.token, body: { ...chat, text } });
    expect(res.statusCode).toBe(201);
  };
  const frameOf = (userId: string) => openFrame(t, a.token, 'chats', { user_id: userId, scope: 'global' } as never);
  const listed = async (token: string, q = '') => {
    const res = await t.call('GET', `/bff/chats${q ? `?q=${encodeURIComponent(q)}` : ''}`, { token });
    expect(res.statusCode).toBe(200);
    return (res.json().data as ChatPage).chats;
  };
  const numbers = (chats: BffChat[]) => chats.map((c) => c.chat_id).sort();

  it('shows every chat while no role is set, and reads and writes settings as the service shapes them', async () => {
    await inbound(viber, { chat_type: 'viber', chat_id: VIBER_NUMBER, name: 'Vic' }, 'hello from viber');
    expect(numbers(await listed(await frameOf('nobody')))).toEqual([VIBER_NUMBER]);
    expect((await v2('GET', '/v2/settings')).body.data).toEqual({
      user_roles: [],
      hide_phone_numbers_for_user_ids: [],
      push_input_output_message_events_for_managers: false,
    });

    const patched = await v2('PATCH', '/v2/settings', {
      user_roles: [
        { channel_id: whatsapp, user_id: 'seller', role: 'seller', allow_get_new_clients: true },
        { channel_id: viber, user_id: 'manager', role: 'manager', allow_get_new_clients: false },
        { channel_id: whatsapp, user_id: 'hidden', role: 'manager', allow_get_new_clients: false },
        { channel_id: viber, user_id: 'hidden', role: 'auditor', allow_get_new_clients: false },
        { channel_id: viber, user_id: 'gone', role: '', allow_get_new_clients: false },
      ],
      hide_phone_numbers_for_user_ids: ['hidden'],
      push_input_output_message_events_for_managers: true,
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data.user_roles).toHaveLength(4);
    expect(patched.body.data).toMatchObject({ hide_phone_numbers_for_user_ids: ['hidden'], push_input_output_message_events_for_managers: true });
    expect(patched.body.data.user_roles).toContainEqual({ channel_id: whatsapp, user_id: 'seller', role: 'seller', allow_get_new_clients: true });
    // A flag alone leaves the roles as they are.
    await v2('PATCH', '/v2/settings', { push_input_output_message_events_for_managers: false });
    expect((await v2('GET', '/v2/settings')).body.data.user_roles).toHaveLength(4);

    const other = await t.newAccount('B');
    const foreign = await activeChannel(t, channelClient(t, other.token), 'telegram');
    const refused = await v2('PATCH', '/v2/settings', { user_roles: [{ channel_id: foreign, user_id: 'seller', role: 'seller' }] });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: 'INVALID_SETTINGS_DATA', data: { fields: [{ field: 'user_roles.0.channel_id' }] } });
  });

  it("lists, searches and opens only the chats of the user's channels, live too", async () => {
    const sellerToken = await frameOf('seller');
    const seller = frameClient(baseUrl, sellerToken);
    const manager = frameClient(baseUrl, await frameOf('manager'));
    frames.push(seller, manager);
    await Promise.all([seller.connect(), manager.connect()]);

    await inbound(whatsapp, { chat_type: 'whatsapp', chat_id: WA_NUMBER, name: 'Wanda' }, 'hello from whatsapp');
    await inbound(viber, { chat_type: 'viber', chat_id: VIBER_NUMBER, name: 'Vic' }, 'again from viber');

    expect(numbers(await listed(sellerToken))).toEqual([WA_NUMBER]);
    expect(await listed(sellerToken, 'viber')).toEqual([]);
    expect(numbers(await listed(await frameOf('nobody')))).toEqual([]);
    const viberChat = (await listed(await frameOf('manager')))[0]!;
    expect(viberChat.chat_id).toBe(VIBER_NUMBER);
    expect((await t.call('GET', `/bff/chats/${viberChat.chat_ref}/messages`, { token: sellerToken })).statusCode).toBe(404);
    const refused = await t.call('POST', '/bff/messages', { token: sellerToken, body: { channel_id: viber, recipient: { chat_type: 'viber', chat_id: VIBER_NUMBER }, text: 'x' } });
    expect(refused.statusCode).toBe(404);
    const unanswered = await t.call('GET', '/bff/chats/unanswered', { token: sellerToken });
    expect(unanswered.json().data).toEqual({ total: 1, chats: 1 });

    const texts = (f: FrameClient) => f.events.flatMap((e) => (e.name === 'message.add' ? [e.payload.text] : []));
    await seller.until(() => texts(seller).includes('hello from whatsapp'), 'the whatsapp message on the seller frame');
    await manager.until(() => texts(manager).includes('again from viber'), 'the viber message on the manager frame');
    expect(texts(seller)).toEqual(['hello from whatsapp']);
    expect(texts(manager)).toEqual(['again from viber']);
    expect(seller.events.filter((e) => e.name === 'chat.unanswered_update').every((e) => e.payload.channel_id === whatsapp)).toBe(true);
  });

  it('shows no phone numbers to a listed user, in the list, the search, sends and live events', async () => {
    const token = await frameOf('hidden');
    const live = frameClient(baseUrl, token);
    frames.push(live);
    await live.connect();
    const chats = await listed(token);
    expect(chats).toHaveLength(2);
    const wa = chats.find((c) => c.chat_type === 'whatsapp')!;
    expect(wa.chat_id).toBe(`hidden:${wa.chat_ref}`);
    expect(JSON.stringify(chats)).not.toMatch(/1234567|1112233/);
    // A part of a number finds nothing; the whole number still finds the chat, shown masked.
    expect(await listed(token, '1234567')).toEqual([]);
    expect((await listed(token, WA_NUMBER)).map((c) => c.chat_ref)).toEqual([wa.chat_ref]);

    const sent = await t.call('POST', '/bff/messages', { token, body: { channel_id: whatsapp, recipient: { chat_type: 'whatsapp', chat_id: wa.chat_id! }, text: 'answer' } });
    expect(sent.statusCode).toBe(201);
    expect(sent.json().data.chat_id).toBe(wa.chat_id);
    // An auditor reads a channel's chats and writes nothing to them.
    const viberChat = chats.find((c) => c.chat_type === 'viber')!;
    const audited = await t.call('POST', '/bff/messages', { token, body: { channel_id: viber, recipient: { chat_type: 'viber', chat_id: viberChat.chat_id! }, text: 'no' } });
    expect(audited.statusCode).toBe(403);

    await inbound(whatsapp, { chat_type: 'whatsapp', chat_id: WA_NUMBER, name: '+7 900 123-45-67' }, 'live one');
    await live.until(() => live.events.some((e) => e.name === 'message.add' && e.payload.text === 'live one'), 'the live message');
    const add = live.events.find((e) => e.name === 'message.add' && e.payload.text === 'live one');
    expect(add?.name === 'message.add' && add.payload.recipient).toMatchObject({ chat_type: 'whatsapp', chat_id: wa.chat_id });
    expect(JSON.stringify(live.events)).not.toMatch(/1234567|123-45-67/);
  });

  it('gives new customers to users allowed to get them, and counts unanswered chats per user', async () => {
    await inbound(whatsapp, { chat_type: 'whatsapp', chat_id: '79005550001', name: 'New' }, 'new customer');
    expect((await v2('GET', '/v2/counters/unanswered/seller')).body.data).toEqual({ counter: 2, type: 'red' });
    expect((await v2('GET', '/v2/counters/unanswered/manager')).body.data).toEqual({ counter: 1, type: 'grey' });
    expect((await v2('GET', '/v2/counters/unanswered/hidden')).body.data).toEqual({ counter: 3, type: 'grey' });
    expect((await v2('GET', '/v2/counters/unanswered/nobody')).body.data).toEqual({ counter: 0, type: 'grey' });

    const cleared = await v2('DELETE', '/v2/chats/unanswered');
    expect(cleared).toEqual({ status: 200, body: { data: { account_id: a.accountId, cleared: true }, meta: { timestamp: expect.any(Number) } } });
    expect((await v2('GET', '/v2/counters/unanswered/seller')).body.data).toEqual({ counter: 0, type: 'grey' });

    // Roles replaced by none: every user sees every chat again.
    await v2('PATCH', '/v2/settings', { user_roles: [] });
    expect(await listed(await frameOf('seller'))).toHaveLength(3);
  });
});
