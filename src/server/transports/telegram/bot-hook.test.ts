import { describe, expect, it } from 'vitest';
import type { BotMessage } from './bot-api.ts';
import { arrivingOf } from './bot-hook.ts';

const anna = { id: 4242, is_bot: false, first_name: 'Anna' };

describe('messages of Telegram updates, as the gateway records them', () => {
  it('reads a private message and a group message, with a caption standing for the words', () => {
    expect(arrivingOf({ message_id: 7, date: 1, chat: { id: 4242, type: 'private' }, from: { ...anna, username: 'anna_k' }, text: 'Hi' })).toMatchObject({
      chatType: 'telegram',
      chatId: '4242',
      username: 'anna_k',
      name: 'Anna',
      text: 'Hi',
      messengerMessageId: '7',
      direction: 'inbound',
    });
    expect(arrivingOf({ message_id: 8, date: 1, chat: { id: -100555, type: 'supergroup', title: 'Buyers' }, from: anna, caption: 'Look' })).toMatchObject({
      chatType: 'telegroup',
      chatId: '-100555',
      name: 'Buyers',
      text: 'Look',
    });
  });

  it('drops what it cannot read, whatever its shape, instead of failing on it', () => {
    const odd = [
      undefined,
      null,
      'text',
      { message_id: 1, from: anna, text: 'no chat' },
      { message_id: 1, chat: { id: 1, type: 'private' }, text: 'no sender' },
      { message_id: '1', chat: { id: 1, type: 'private' }, from: anna, text: 'id as text' },
      { message_id: 1, chat: { id: 1, type: 'private' }, from: anna, text: 42 },
      { message_id: 1, chat: { id: 1, type: 'private' }, from: { ...anna, is_bot: true }, text: 'a bot' },
      { message_id: 1, chat: { id: 1, type: 'channel' }, from: anna, text: 'a channel post' },
      { message_id: 1, chat: { id: 1, type: 'private' }, from: anna },
    ];
    for (const message of odd) expect(arrivingOf(message as unknown as BotMessage), JSON.stringify(message)).toBeNull();
  });
});
