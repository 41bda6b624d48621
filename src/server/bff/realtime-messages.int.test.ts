import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelClient } from '../testing/channel-client.ts';
import { frameClient, type FrameClient } from '../testing/frame-client.ts';
import { openFrame } from '../testing/frames.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { activeChannel } from '../testing/messaging.ts';
import { databaseKind } from '../testing/test-database.ts';

describe(`the chat frame's messages, over /bff and socket.io, through the sandbox (${databaseKind()})`, () => {
  let t: TestGateway;
  let account: { accountId: string; token: string };
  let channelId: string;
  let card: FrameClient;
  let global: FrameClient;
  let cardToken: string;
  let baseUrl: string;

  beforeAll(async () => {
    t = await startTestGateway({ env: { PORT: '0' } });
    baseUrl = await t.gateway.listen();
    account = await t.newAccount('A');
    channelId = await activeChannel(t, channelClient(t, account.token), 'telegram');
    cardToken = await openFrame(t, account.token, 'chats', { user: { id: 'agent-7' }, scope: 'card', chats: [{ chat_type: 'telegram', username: 'bob' }] });
    card = frameClient(baseUrl, cardToken);
    global = frameClient(baseUrl, await openFrame(t, account.token, 'chats', { user: { id: 'u1' }, scope: 'global' }));
    await Promise.all([card.connect(), global.connect()]);
  });
  afterAll(async () => {
    card?.close();
    global?.close();
    await t.close();
  });

  const inbound = async (username: string, text: string) => {
    const res = await t.call('POST', `/v2/sandbox/channels/${channelId}/inbound`, {
      token: account.token,
      body: { chat_type: 'telegram', username, name: username, text },
    });
    expect(res.statusCode).toBe(201);
    return res.json().data as { message_id: string; chat_id: string };
  };

  it("gives a card frame its chat's inbound messages and the statuses of the replies, and nothing of other chats", async () => {
    const fromBob = await inbound('bob', 'hello');
    await inbound('eve', 'not for the card');
    const reply = await t.call('POST', '/v2/messages', {
      token: account.token,
      body: { channel_id: channelId, recipient: { chat_type: 'telegram', chat_id: fromBob.chat_id }, text: 'hi Bob' },
    });
    expect(reply.statusCode).toBe(201);
    const requestId = reply.json().data.request_id as string;

    const delivered = (c: FrameClient) => c.events.some((e) => e.name === 'message.status_update' && e.payload.request_id === requestId && e.payload.status === 'delivered');
    await global.until(() => delivered(global), 'the delivery on the global frame');
    await card.until(() => delivered(card), 'the delivery on the card frame');

    const texts = (c: FrameClient) => c.events.flatMap((e) => (e.name === 'message.add' ? [e.payload.text] : []));
    expect(texts(card)).toEqual(['hello']);
    expect(texts(global).sort()).toEqual(['hello', 'not for the card']);
    // The statuses name only the message; the frame got them because the chat was looked up by the event's key.
    expect(card.events.filter((e) => e.name === 'message.status_update').every((e) => e.payload.request_id === requestId)).toBe(true);
  });

  it('names the file a customer’s words are the caption of, live and in a catch-up, so that the frame counts the two as one', async () => {
    const before = global.position;
    const photo = { url: 'https://files.example/sofa.png', name: 'sofa.png', mimetype: 'image/png' };
    const res = await t.call('POST', `/v2/sandbox/channels/${channelId}/inbound`, { token: account.token, body: { chat_type: 'telegram', username: 'dan', name: 'dan', attachment: photo, text: 'is it blue?' } });
    expect(res.statusCode, res.body).toBe(201);
    const file = res.json().data.message_id as string;
    await inbound('dan', 'hello?');
    const added = (c: FrameClient) => c.events.flatMap((e) => (e.name === 'message.add' && e.payload.recipient.username === 'dan' ? [[e.payload.text ?? null, e.payload.caption_of ?? null]] : []));
    await global.until(() => added(global).length === 3, 'the file, its caption and the words after');
    expect(added(global)).toEqual([
      [null, null],
      ['is it blue?', file],
      ['hello?', null],
    ]);
    // A frame that reconnects from before gets the same in its catch-up.
    const late = frameClient(baseUrl, await openFrame(t, account.token, 'chats', { user: { id: 'u2' }, scope: 'global' }));
    late.position = before;
    await late.connect();
    expect(added(late)).toEqual(added(global));
    late.close();
  });

  it('sends, quotes, edits and deletes as the session user within the card, and reports other chats as not found', async () => {
    const fromBob = await inbound('bob', 'can you help?');
    const fromEve = await inbound('eve', 'me too');
    const bff = (method: 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) => t.call(method, `/bff${url}`, { token: cardToken, body });

    const sent = await bff('POST', '/messages', {
      channel_id: channelId,
      recipient: { chat_type: 'telegram', chat_id: fromBob.chat_id },
      quoted_message_id: fromBob.message_id,
      text: 'sure',
    });
    expect(sent.statusCode).toBe(201);
    const requestId = sent.json().data.request_id as string;
    await card.until(() => card.events.some((e) => e.name === 'message.status_update' && e.payload.request_id === requestId && e.payload.status === 'delivered'), 'the delivery');
    const status = card.events.find((e) => e.name === 'message.status_update' && e.payload.request_id === requestId);
    const messageId = (status?.name === 'message.status_update' && status.payload.message_id) as string;

    const toEve = await bff('POST', '/messages', { channel_id: channelId, recipient: { chat_type: 'telegram', chat_id: fromEve.chat_id }, text: 'hi' });
    expect(toEve.statusCode).toBe(404);
    expect(toEve.json().error).toBe('CHAT_NOT_FOUND');
    const quotingEve = await bff('POST', '/messages', {
      channel_id: channelId,
      recipient: { chat_type: 'telegram', chat_id: fromBob.chat_id },
      quoted_message_id: fromEve.message_id,
      text: 'hi',
    });
    expect(quotingEve.statusCode).toBe(404);
    expect((await bff('PATCH', `/messages/${fromEve.message_id}`, { text: 'x' })).statusCode).toBe(404);
    expect((await bff('DELETE', `/messages/${fromEve.message_id}`)).json().error).toBe('MESSAGE_NOT_FOUND');

    const edited = await bff('PATCH', `/messages/${messageId}`, { text: 'sure, one moment' });
    expect(edited.statusCode).toBe(200);
    await card.until(() => card.events.some((e) => e.name === 'message.edit' && e.payload.message_id === messageId), 'the edit');
    const edit = card.events.find((e) => e.name === 'message.edit' && e.payload.message_id === messageId)!;
    expect(edit.payload).toMatchObject({ crm_user_id: 'agent-7', text: 'sure, one moment' });
    expect((await bff('DELETE', `/messages/${messageId}`)).statusCode).toBe(200);
    await card.until(() => card.events.some((e) => e.name === 'message.delete' && e.payload.message_id === messageId), 'the deletion');
    // The frame cannot name another author.
    const named = await bff('POST', '/messages', { channel_id: channelId, recipient: { chat_type: 'telegram', chat_id: fromBob.chat_id }, text: 'x', crm_user_id: 'boss' });
    expect(named.statusCode).toBe(400);
  });
});
