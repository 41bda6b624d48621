import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventStream } from '../testing/event-stream.ts';
import { eventually } from '../testing/eventually.ts';
import { openFrame } from '../testing/frames.ts';
import { startLiveGateway, type TestGateway } from '../testing/harness.ts';
import { TELEGRAM_TOKEN } from '../testing/messaging.ts';
import { startTelegramEmulator, type TelegramEmulator } from '../testing/telegram-emulator.ts';
import { databaseKind } from '../testing/test-database.ts';

const anna = { id: 4242, is_bot: false, first_name: 'Anna', username: 'anna_k' };
const date = 1_795_000_000;

describe(`live telegram bots: reactions both ways and the bot typing (${databaseKind()})`, () => {
  let telegram: TelegramEmulator;
  let t: TestGateway;
  let token: string;
  let accountId: string;
  let updateId = 1;

  beforeAll(async () => {
    telegram = await startTelegramEmulator();
    telegram.addBot(TELEGRAM_TOKEN, { id: 123456789, username: 'acme_shop_bot', first_name: 'Acme Shop' });
    ({ t } = await startLiveGateway({ TELEGRAM_API_URL: telegram.url, SECRET_KEY: 'k'.repeat(40) }));
    ({ token, accountId } = await t.newAccount());
    const res = await t.call('POST', '/v2/channels', { token, body: { transport: 'telegram', credentials: { telegram_token: TELEGRAM_TOKEN } } });
    expect(res.statusCode, res.body).toBe(201);
  });
  afterAll(async () => {
    await t?.close();
    await telegram?.close();
  });

  const callsOf = (method: string) => telegram.calls.filter((c) => c.method === method);
  const reaction = (emoji: string | null, old: string | null) =>
    telegram.deliver(TELEGRAM_TOKEN, {
      update_id: updateId++,
      message_reaction: {
        chat: { id: 4242, type: 'private' },
        message_id: 7,
        user: anna,
        date,
        old_reaction: old ? [{ type: 'emoji', emoji: old }] : [],
        new_reaction: emoji ? [{ type: 'emoji', emoji }] : [],
      },
    });

  it('sets the bot’s reaction with setMessageReaction, refuses one a bot may not set, and shows the bot typing', async () => {
    expect(await telegram.deliver(TELEGRAM_TOKEN, { update_id: updateId++, message: { message_id: 7, date, chat: { id: 4242, type: 'private' }, from: anna, text: 'Где мой заказ?' } })).toBe(200);
    const frame = await openFrame(t, token, 'chats', { user: { id: 'u1' }, scope: 'global' });
    const chat = await eventually(async () => (await t.call('GET', '/bff/chats', { token: frame })).json().data.chats[0] as { chat_ref: string } | undefined);
    const [asked] = (await t.call('GET', `/bff/chats/${chat.chat_ref}/messages`, { token: frame })).json().data.messages;

    const set = await t.call('PUT', `/bff/messages/${asked.message_id}/reaction`, { token: frame, body: { emoji: '👍' } });
    expect(set.statusCode, set.body).toBe(200);
    expect(callsOf('setMessageReaction').at(-1)!.params).toEqual({ chat_id: '4242', message_id: 7, reaction: [{ type: 'emoji', emoji: '👍' }] });
    const unset = await t.call('PUT', `/bff/messages/${asked.message_id}/reaction`, { token: frame, body: { emoji: null } });
    expect(unset.statusCode, unset.body).toBe(200);
    expect(callsOf('setMessageReaction').at(-1)!.params.reaction).toEqual([]);
    const odd = await t.call('PUT', `/bff/messages/${asked.message_id}/reaction`, { token: frame, body: { emoji: '🦩' } });
    expect(odd.statusCode).toBe(400);
    expect(odd.json().fields ?? odd.json().data?.fields).toEqual([{ field: 'emoji', message: 'is not one of the reactions Telegram lets a bot set' }]);

    expect((await t.call('POST', `/bff/chats/${chat.chat_ref}/typing`, { token: frame })).statusCode).toBe(204);
    expect(callsOf('sendChatAction').at(-1)!.params).toEqual({ chat_id: '4242', action: 'typing' });
  });

  it('records a customer’s reaction from message_reaction, and its taking back', async () => {
    const stream = eventStream(t.gateway.database, accountId);
    await stream.since();
    expect(await reaction('🔥', null)).toBe(200);
    expect(await reaction(null, '🔥')).toBe(200);
    const events = (await stream.since()).filter((e) => e.name === 'message.reaction');
    expect(events.map((e) => [e.payload.by, e.payload.reactor, e.payload.emoji, e.payload.old_emoji])).toEqual([
      ['customer', '4242', '🔥', null],
      ['customer', '4242', null, '🔥'],
    ]);
  });
});
