import type { ChatTyping } from '../../contract/realtime.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelClient } from '../testing/channel-client.ts';
import { eventually } from '../testing/eventually.ts';
import { frameClient, type FrameClient } from '../testing/frame-client.ts';
import { openFrame } from '../testing/frames.ts';
import { startLiveGateway, type TestGateway } from '../testing/harness.ts';
import { telegramAccountFake } from '../testing/telegram-account-fake.ts';
import { databaseKind } from '../testing/test-database.ts';

const self = { id: 700100, firstName: 'Acme', lastName: 'Support', username: 'acme_support', phone: '79990001122' };
const anna = { id: 700300, firstName: 'Anna', lastName: 'Kravets', username: 'anna_k', phone: '79991112233' };

/**
 * A personal Telegram account (mtcute against the account fake) hears what a customer does besides writing: their
 * reaction to a message of the private chat (as Telegram tells it: the message edited without a mark, or
 * `updateMessageReactions`) is recorded and reaches the frame, and their typing (`updateUserTyping`) reaches the
 * frame's indicator.
 */
describe(`a personal Telegram account hears the customer’s reactions and typing (${databaseKind()})`, () => {
  const fake = telegramAccountFake({ self, seed: 'reactions-typing' });
  fake.addUser(anna);
  let t: TestGateway;
  let token: string;
  let frameToken: string;
  let channelId: string;
  let frame: FrameClient;
  const typing: ChatTyping[] = [];

  beforeAll(async () => {
    let base: string;
    ({ t, base } = await startLiveGateway({ SECRET_KEY: 's'.repeat(40) }, { tgapiClients: fake.clients }));
    ({ token } = await t.newAccount());
    const api = channelClient(t, token);
    ({ channel_id: channelId } = await api.create('tgapi'));
    const db = t.gateway.database.db;
    await eventually(async () => ((await db.selectFrom('events').select('id').where('name', '=', 'channel.qr_update').executeTakeFirst()) ? true : undefined));
    fake.scan();
    await api.untilActive(channelId);
    await eventually(async () => (t.gateway.sessions?.running().includes(channelId) ? true : undefined));
    frameToken = await openFrame(t, token, 'chats', { user: { id: 'u1' }, scope: 'global' });
    frame = frameClient(base, frameToken);
    frame.socket.on('typing', (shown) => typing.push(shown));
    await frame.connect();
  }, 30_000);
  afterAll(async () => {
    frame?.close();
    await t?.close();
  });

  const reactionEvents = () => frame.events.filter((e) => e.name === 'message.reaction');
  const reactionsSeen = () => reactionEvents().map((e) => [e.payload.by, e.payload.reactor, e.payload.emoji, e.payload.old_emoji]);
  const bff = async (method: 'GET' | 'PUT' | 'POST', url: string, body?: Record<string, unknown>) => t.call(method, `/bff${url}`, { token: frameToken, ...(body ? { body } : {}) });
  const chatOfAnna = async () => eventually(async () => ((await bff('GET', '/chats')).json().data.chats as { chat_ref: string; chat_id: string }[]).find((c) => c.chat_id === String(anna.id)));
  const messagesOf = async (chatRef: string) => (await bff('GET', `/chats/${chatRef}/messages`)).json().data.messages as { message_id: string; text: string; reactions?: unknown[] }[];

  it('records the customer’s reaction added, changed and taken back, told either way Telegram tells it', async () => {
    const asked = fake.customerWrites(anna.id, 'Где мой заказ?');
    const chat = await chatOfAnna();
    const [message] = await messagesOf(chat.chat_ref);

    fake.customerReacts(anna.id, asked, '👍');
    await frame.until(() => reactionEvents().length >= 1, 'the reaction added');
    fake.customerReacts(anna.id, asked, '🔥', 'updateMessageReactions');
    await frame.until(() => reactionEvents().length >= 2, 'the reaction changed');
    expect((await messagesOf(chat.chat_ref))[0]!.reactions).toEqual([{ emoji: '🔥', by: 'customer', reactor: String(anna.id) }]);
    fake.customerReacts(anna.id, asked, null);
    await frame.until(() => reactionEvents().length >= 3, 'the reaction taken back');
    expect(reactionsSeen()).toEqual([
      ['customer', String(anna.id), '👍', null],
      ['customer', String(anna.id), '🔥', '👍'],
      ['customer', String(anna.id), null, '🔥'],
    ]);
    expect(reactionEvents()[0]!.payload).toMatchObject({ message_id: message!.message_id, chat_type: 'telegram', chat_id: String(anna.id) });
    expect((await messagesOf(chat.chat_ref))[0]!.reactions ?? []).toEqual([]);
  });

  it('records the customer’s reaction to the agent’s message beside the agent’s own, and the agent’s stays theirs', async () => {
    const chat = await chatOfAnna();
    const sent = await t.call('POST', '/v2/messages', { token, body: { channel_id: channelId, recipient: { chat_type: 'telegram', chat_id: String(anna.id) }, text: 'Уже в пути' } });
    expect(sent.statusCode, sent.body).toBe(201);
    const answer = await eventually(async () => (await messagesOf(chat.chat_ref)).find((m) => m.text === 'Уже в пути' && (m as { status?: string }).status === 'sent'));
    const before = reactionEvents().length;
    expect((await bff('PUT', `/messages/${answer.message_id}/reaction`, { emoji: '🙏' })).statusCode).toBe(200);
    const number = [...fake.messages.values()].find((m) => m.text === 'Уже в пути')!.id;
    fake.customerReacts(anna.id, number, '❤️');
    await frame.until(() => reactionEvents().length >= before + 2, 'the agent’s and the customer’s reactions');
    expect(reactionsSeen().slice(before)).toEqual([
      ['agent', 'agent', '🙏', null],
      ['customer', String(anna.id), '❤️', null],
    ]);
    const shown = (await messagesOf(chat.chat_ref)).find((m) => m.message_id === answer.message_id)!;
    expect(shown.reactions).toEqual(expect.arrayContaining([{ emoji: '🙏', by: 'agent', reactor: 'agent' }, { emoji: '❤️', by: 'customer', reactor: String(anna.id) }]));
  });

  it('tells the frame the customer is typing or recording a voice note, and when they stop', async () => {
    const chat = await chatOfAnna();
    fake.customerTyping(anna.id);
    await frame.until(() => typing.length >= 1, 'the customer typing');
    expect(typing[0]).toMatchObject({ chat_ref: chat.chat_ref, chat_type: 'telegram', chat_id: String(anna.id) });
    expect(typing[0]!.stopped).toBeUndefined();
    fake.customerTyping(anna.id, 'sendMessageCancelAction');
    await frame.until(() => typing.length >= 2, 'the customer stopping');
    fake.customerTyping(anna.id, 'sendMessageRecordAudioAction');
    await frame.until(() => typing.length >= 3, 'the customer recording');
    expect(typing.map((shown) => [shown.chat_ref, shown.stopped ?? false])).toEqual([
      [chat.chat_ref, false],
      [chat.chat_ref, true],
      [chat.chat_ref, false],
    ]);
  });
});
