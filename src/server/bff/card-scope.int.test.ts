import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelClient } from '../testing/channel-client.ts';
import { openFrame } from '../testing/frames.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { activeChannel, messageByRequest } from '../testing/messaging.ts';
import { databaseKind } from '../testing/test-database.ts';

describe(`a card session writes only to the chat a message is routed to (${databaseKind()})`, () => {
  let t: TestGateway;
  let account: { accountId: string; token: string };
  let channelId: string;
  let cardToken: string;
  const chatRefOf = async (chatId: string) => {
    const res = await t.call('GET', `/bff/chats?limit=50`, { token: await openFrame(t, account.token, 'chats', { user: { id: 'u1' }, scope: 'global' }) });
    return (res.json().data.chats as { chat_ref: string; chat_id: string | null }[]).find((c) => c.chat_id === chatId)?.chat_ref;
  };

  beforeAll(async () => {
    t = await startTestGateway();
    account = await t.newAccount('A');
    channelId = await activeChannel(t, channelClient(t, account.token), 'telegram');
    for (const [chatId, username] of [['1001', 'bob'], ['1002', 'eve']]) {
      const res = await t.call('POST', `/v2/sandbox/channels/${channelId}/inbound`, {
        token: account.token,
        body: { chat_type: 'telegram', chat_id: chatId, username, name: username, text: 'hi' },
      });
      expect(res.statusCode).toBe(201);
    }
    cardToken = await openFrame(t, account.token, 'chats', { user: { id: 'agent-7' }, scope: 'card', chats: [{ chat_type: 'telegram', username: 'bob' }] });
  });
  afterAll(() => t.close());

  const send = (recipient: Record<string, string>) =>
    t.call('POST', '/bff/messages', { token: cardToken, body: { channel_id: channelId, recipient: { chat_type: 'telegram', ...recipient }, text: 'hello' } });

  it("refuses another chat's chat_id carried next to the card's username", async () => {
    const res = await send({ chat_id: '1002', username: 'bob' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('CHAT_NOT_FOUND');
  });

  it("refuses a chat_id the gateway does not know yet, even with the card's username", async () => {
    const res = await send({ chat_id: '1003', username: 'bob' });
    expect(res.statusCode).toBe(404);
  });

  it("sends to the card's chat named by its username, or by the chat_id its stored chat joins to that username", async () => {
    const byId = await send({ chat_id: '1001' });
    expect(byId.statusCode).toBe(201);
    const byName = await send({ username: 'bob' });
    expect(byName.statusCode).toBe(201);
    const message = await messageByRequest(t, byId.json().data.request_id);
    expect(message?.chat_ref).toBe(await chatRefOf('1001'));
  });
});
