import { describe, expect, it } from 'vitest';
import type { BotMessage } from './bot-api.ts';
import { arrivingOf } from './bot-hook.ts';

const anna = { id: 4242, is_bot: false, first_name: 'Anna' };
const linkOf = (found: { file: { file_id: string }; mimetype: string | null }) => ({ url: `https://gw.example.com/f/${found.file.file_id}`, ...(found.mimetype ? { mimetype: found.mimetype } : {}) });

describe('messages of Telegram updates, as the gateway records them', () => {
  it('reads a private message and a group message', () => {
    expect(arrivingOf({ message_id: 7, date: 1, chat: { id: 4242, type: 'private' }, from: { ...anna, username: 'anna_k' }, text: 'Hi' })).toEqual([
      { chatType: 'telegram', chatId: '4242', username: 'anna_k', name: 'Anna', phone: null, text: 'Hi', attachment: null, messengerMessageId: '7', direction: 'inbound' },
    ]);
    expect(arrivingOf({ message_id: 8, date: 1, chat: { id: -100555, type: 'supergroup', title: 'Buyers' }, from: anna, text: 'Look' })).toMatchObject([
      { chatType: 'telegroup', chatId: '-100555', name: 'Buyers', text: 'Look' },
    ]);
  });

  it('makes a file one message and its caption another; without links for files, only the words', () => {
    const photo: BotMessage = {
      message_id: 9,
      date: 1,
      chat: { id: 4242, type: 'private' },
      from: anna,
      photo: [{ file_id: 'small' }, { file_id: 'large', file_size: 2048 }],
      caption: 'My receipt',
    };
    expect(arrivingOf(photo, linkOf)).toMatchObject([
      { text: null, attachment: { url: 'https://gw.example.com/f/large', mimetype: 'image/jpeg' }, messengerMessageId: '9' },
      { text: 'My receipt', attachment: null, messengerMessageId: '9:caption' },
    ]);
    expect(arrivingOf({ ...photo, caption: undefined, document: undefined }, linkOf)).toHaveLength(1);
    expect(arrivingOf(photo)).toMatchObject([{ text: 'My receipt', messengerMessageId: '9' }]);
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
      { message_id: 1, chat: { id: 1, type: 'private' }, from: anna, sticker: { file_id: 's' } },
      { message_id: 1, chat: { id: 1, type: 'private' }, from: anna, photo: 'not sizes' },
    ];
    for (const message of odd) expect(arrivingOf(message as unknown as BotMessage, linkOf), JSON.stringify(message)).toEqual([]);
  });
});
