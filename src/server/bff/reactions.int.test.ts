import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelClient } from '../testing/channel-client.ts';
import { openFrame } from '../testing/frames.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { activeChannel } from '../testing/messaging.ts';
import { databaseKind } from '../testing/test-database.ts';

interface Shown {
  message_id: string;
  text: string | null;
  reactions?: { emoji: string; by: string; reactor: string }[];
}

describe(`reactions to messages, from the frame and the sandbox phone (${databaseKind()})`, () => {
  let t: TestGateway;
  let a: { accountId: string; token: string };
  let channel: string;
  let vk: string;
  const recipient = { chat_type: 'whatsapp', chat_id: '79001110001' };

  const history = async (token: string, chatRef: string): Promise<Shown[]> => (await t.call('GET', `/bff/chats/${chatRef}/messages`, { token })).json().data.messages;
  const reactionEvents = async () =>
    (
      await sql<{ payload: Record<string, unknown> }>`select payload from events where account_id = ${a.accountId} and name = 'message.reaction' order by position`.execute(
        t.gateway.database.db,
      )
    ).rows.map((r) => r.payload);

  beforeAll(async () => {
    t = await startTestGateway();
    a = await t.newAccount('A');
    channel = await activeChannel(t, channelClient(t, a.token), 'whatsapp');
    vk = await activeChannel(t, channelClient(t, a.token), 'viber');
  });
  afterAll(() => t.close());

  it('the agent reacts from the frame and the customer from the phone; both show in the history and on the phone, and go out as message.reaction', async () => {
    await t.call('POST', `/v2/sandbox/channels/${channel}/inbound`, { token: a.token, body: { ...recipient, text: 'Is it in stock?' } });
    const token = await openFrame(t, a.token, 'chats', { user: { id: 'agent-7' }, scope: 'global' });
    const chatRef = (await t.call('GET', '/bff/chats', { token })).json().data.chats.find((c: { chat_id: string }) => c.chat_id === recipient.chat_id).chat_ref;
    const [asked] = await history(token, chatRef);
    const reacted = await t.call('PUT', `/bff/messages/${asked!.message_id}/reaction`, { token, body: { emoji: '👍' } });
    expect(reacted.statusCode, reacted.body).toBe(200);

    const phone = await t.call('GET', `/v2/sandbox/channels/${channel}/chats/whatsapp/${recipient.chat_id}/messages`, { token: a.token });
    expect(phone.json().data[0].reactions).toEqual([{ emoji: '👍', by: 'agent', reactor: 'agent' }]);

    const customer = await t.call('POST', `/v2/sandbox/messages/${asked!.message_id}/reaction`, { token: a.token, body: { emoji: '❤️' } });
    expect(customer.statusCode, customer.body).toBe(200);
    expect((await history(token, chatRef))[0]!.reactions).toEqual([
      { emoji: '👍', by: 'agent', reactor: 'agent' },
      { emoji: '❤️', by: 'customer', reactor: recipient.chat_id },
    ]);

    // The agent takes theirs back; the same reaction twice changes nothing and says nothing.
    await t.call('PUT', `/bff/messages/${asked!.message_id}/reaction`, { token, body: { emoji: null } });
    await t.call('POST', `/v2/sandbox/messages/${asked!.message_id}/reaction`, { token: a.token, body: { emoji: '❤️' } });
    expect((await history(token, chatRef))[0]!.reactions).toEqual([{ emoji: '❤️', by: 'customer', reactor: recipient.chat_id }]);
    const events = await reactionEvents();
    expect(events.map((e) => [e.by, e.emoji, e.old_emoji, e.crm_user_id])).toEqual([
      ['agent', '👍', null, 'agent-7'],
      ['customer', '❤️', null, null],
      ['agent', null, '👍', 'agent-7'],
    ]);
    expect(events[0]).toMatchObject({ message_id: asked!.message_id, channel_id: channel, chat_type: 'whatsapp', chat_id: recipient.chat_id });
  });

  it('refuses what is not one emoji, and a transport without reactions', async () => {
    const token = await openFrame(t, a.token, 'chats', { user: { id: 'agent-7' }, scope: 'global' });
    await t.call('POST', `/v2/sandbox/channels/${channel}/inbound`, { token: a.token, body: { ...recipient, text: 'Hello?' } });
    const chatRef = (await t.call('GET', '/bff/chats', { token })).json().data.chats.find((c: { chat_id: string }) => c.chat_id === recipient.chat_id).chat_ref;
    const last = (await history(token, chatRef)).at(-1)!;
    const words = await t.call('PUT', `/bff/messages/${last.message_id}/reaction`, { token, body: { emoji: 'nice' } });
    expect(words.statusCode).toBe(400);
    expect(words.json().error).toBe('VALIDATION_ERROR');

    await t.call('POST', `/v2/sandbox/channels/${vk}/inbound`, { token: a.token, body: { chat_type: 'viber', chat_id: '501', text: 'Hi' } });
    const vkRef = (await t.call('GET', '/bff/chats', { token })).json().data.chats.find((c: { chat_id: string }) => c.chat_id === '501').chat_ref;
    const [vkMessage] = await history(token, vkRef);
    const refused = await t.call('PUT', `/bff/messages/${vkMessage!.message_id}/reaction`, { token, body: { emoji: '👍' } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe('CHANNEL_INVALID_TRANSPORT_FOR_REACTIONS');
    const phone = await t.call('POST', `/v2/sandbox/messages/${vkMessage!.message_id}/reaction`, { token: a.token, body: { emoji: '👍' } });
    expect(phone.json().error).toBe('CHANNEL_INVALID_TRANSPORT_FOR_REACTIONS');
  });

  it('a CRM subscribes to message.reaction like any event', async () => {
    const res = await t.call('POST', '/v2/webhooks', { token: a.token, body: { data: [{ url: 'https://crm.example/hook', event: 'message.reaction' }] } });
    expect(res.statusCode, res.body).toBeLessThan(300);
    expect(res.json().meta?.refused ?? []).toEqual([]);
  });
});
