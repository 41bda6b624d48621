import { describe, expect, it } from 'vitest';
import type { BotCallbackQuery, BotMessage } from './bot-api.ts';
import { arrivingOf, editsOf, moveOf, pressOf } from './bot-updates.ts';

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

  it('names the member who wrote in a group as the sender, and no sender in a private chat (the customer is the chat)', () => {
    const [inGroup] = arrivingOf({ message_id: 8, date: 1, chat: { id: -100555, type: 'supergroup', title: 'Buyers' }, from: { ...anna, last_name: 'K', username: 'anna_k' }, text: 'Look' });
    expect(inGroup?.sender).toEqual({ chat_type: 'telegram', chat_id: '4242', name: 'Anna K', username: 'anna_k', phone: null });
    const [inPrivate] = arrivingOf({ message_id: 7, date: 1, chat: { id: 4242, type: 'private' }, from: anna, text: 'Hi' });
    expect(inPrivate?.sender).toBeUndefined();
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

describe('what customers do beyond new messages, as the gateway records it', () => {
  const photo: BotMessage = { message_id: 9, date: 1, chat: { id: 4242, type: 'private' }, from: anna, photo: [{ file_id: 'large' }], caption: 'New caption' };

  it('reads an edit as the new words of the message, or of its file’s caption, and a file replaced', () => {
    expect(editsOf({ message_id: 7, date: 1, chat: { id: 4242, type: 'private' }, from: anna, text: 'Hi, again' })).toEqual([
      { chatType: 'telegram', chatId: '4242', messengerMessageId: '7', text: 'Hi, again' },
    ]);
    // With the edit's time, so that an edit sent again after a later one changes nothing.
    expect(editsOf({ message_id: 7, date: 1, edit_date: 1_795_000_100, chat: { id: 4242, type: 'private' }, from: anna, text: 'Hi' })).toEqual([
      { chatType: 'telegram', chatId: '4242', messengerMessageId: '7', text: 'Hi', editedAt: new Date(1_795_000_100_000) },
    ]);
    expect(editsOf(photo, linkOf)).toEqual([
      { chatType: 'telegram', chatId: '4242', messengerMessageId: '9', attachment: { url: 'https://gw.example.com/f/large', mimetype: 'image/jpeg' }, isRecordedFile: expect.any(Function) },
      {
        chatType: 'telegram',
        chatId: '4242',
        messengerMessageId: '9:caption',
        text: 'New caption',
        // Given to a file that had none, the caption arrives as the message it would have been.
        added: { partOf: '9', arriving: expect.objectContaining({ chatType: 'telegram', chatId: '4242', direction: 'inbound', messengerMessageId: '9:caption', text: 'New caption', attachment: null }) },
      },
    ]);
    // Without links for files, a caption was recorded as the message itself.
    expect(editsOf(photo)).toEqual([{ chatType: 'telegram', chatId: '4242', messengerMessageId: '9', text: 'New caption' }]);
    expect(editsOf({ message_id: 8, date: 1, chat: { id: -100555, type: 'supergroup', title: 'Buyers' }, from: anna, text: 'fixed' })).toMatchObject([{ chatType: 'telegroup', chatId: '-100555' }]);
    for (const odd of [undefined, null, { message_id: 1, chat: { id: 1, type: 'private' }, from: { ...anna, is_bot: true }, text: 'a bot' }, { message_id: 1, chat: { id: 1, type: 'channel' }, from: anna, text: 'post' }]) {
      expect(editsOf(odd as unknown as BotMessage, linkOf)).toEqual([]);
    }
  });

  it('reads a caption taken away as empty words, and tells a replaced file by its file_unique_id, not its file_id', () => {
    expect(editsOf({ ...photo, caption: undefined }, linkOf)).toEqual([
      expect.objectContaining({ messengerMessageId: '9' }),
      { chatType: 'telegram', chatId: '4242', messengerMessageId: '9:caption', text: '' },
    ]);
    // Without links for files, the caption was the message itself.
    expect(editsOf({ ...photo, caption: undefined })).toEqual([{ chatType: 'telegram', chatId: '4242', messengerMessageId: '9', text: '' }]);
    // A text message's words are never taken away; a message with neither words nor a file changes nothing.
    expect(editsOf({ message_id: 7, date: 1, chat: { id: 4242, type: 'private' }, from: anna, sticker: { file_id: 's' } } as unknown as BotMessage, linkOf)).toEqual([]);

    const linkKeepingUnique = (found: { file: { file_id: string; file_unique_id?: string } }) => ({ url: `https://gw.example.com/f/${found.file.file_id}?file_unique_id=${found.file.file_unique_id}&signature=s` });
    const [file] = editsOf({ ...photo, photo: [{ file_id: 'reissued', file_unique_id: 'AQAD1' }] }, linkKeepingUnique);
    expect(file!.isRecordedFile!({ url: 'https://gw.example.com/f/large?file_unique_id=AQAD1&signature=s' })).toBe(true);
    expect(file!.isRecordedFile!({ url: 'https://gw.example.com/f/other?file_unique_id=AQAD2&signature=s' })).toBe(false);
    // A link made before links kept the unique id: by the link.
    expect(file!.isRecordedFile!({ url: 'https://gw.example.com/f/large?signature=s' })).toBe(false);
    expect(file!.isRecordedFile!({ url: 'https://gw.example.com/f/reissued?file_unique_id=AQAD1&signature=s' })).toBe(true);
  });

  it('reads a group’s move to a supergroup from either side', () => {
    expect(moveOf({ message_id: 1, date: 1, chat: { id: -555, type: 'group', title: 'Buyers' }, from: anna, migrate_to_chat_id: -100555 })).toEqual({ chatType: 'telegroup', from: '-555', to: '-100555' });
    expect(moveOf({ message_id: 1, date: 1, chat: { id: -100555, type: 'supergroup', title: 'Buyers' }, migrate_from_chat_id: -555 })).toEqual({ chatType: 'telegroup', from: '-555', to: '-100555' });
    expect(moveOf({ message_id: 1, date: 1, chat: { id: -555, type: 'group' }, from: anna, text: 'just words' })).toBeNull();
    expect(moveOf({ message_id: 1, date: 1, chat: { id: 4242, type: 'private' }, from: anna, migrate_to_chat_id: -100555 })).toBeNull();
    expect(moveOf({ message_id: 1, date: 1, chat: { id: -555, type: 'group' }, migrate_to_chat_id: '-100555' } as unknown as BotMessage)).toBeNull();
  });

  it('reads a button press as the text of the button pressed, from the presser, answering the message it is on', () => {
    const offer: BotMessage = {
      message_id: 120,
      date: 1,
      chat: { id: 4242, type: 'private' },
      from: { id: 123456789, is_bot: true, first_name: 'Shop' },
      text: 'Confirm the order?',
      reply_markup: { inline_keyboard: [[{ text: 'Open site', url: 'https://example.com' }], [{ text: 'Yes', callback_data: 'order:yes' }, { text: 'No', callback_data: 'order:no' }]] },
    };
    const press = (query: Partial<BotCallbackQuery>) => pressOf({ id: 'q1', from: { ...anna, username: 'anna_k' }, data: 'order:no', message: offer, ...query });
    expect(press({})).toEqual({
      chatType: 'telegram',
      chatId: '4242',
      username: 'anna_k',
      name: 'Anna',
      phone: null,
      direction: 'inbound',
      text: 'No',
      attachment: null,
      messengerMessageId: 'cb:q1',
      quotedMessengerId: '120',
    });
    // A button the message no longer shows: its data. A message older than Telegram keeps: its chat, the data.
    expect(press({ data: 'order:later' })).toMatchObject({ text: 'order:later' });
    expect(press({ message: { message_id: 120, date: 0, chat: { id: 4242, type: 'private' } } })).toMatchObject({ chatId: '4242', text: 'order:no', quotedMessengerId: '120' });
    // Without a message (inline mode): the presser's private chat.
    expect(press({ message: undefined, inline_message_id: 'inl' })).toMatchObject({ chatType: 'telegram', chatId: '4242', text: 'order:no' });
    expect(press({ message: undefined })).not.toHaveProperty('quotedMessengerId');
    // In a group: the group's chat, the presser's words.
    expect(press({ message: { ...offer, chat: { id: -100555, type: 'supergroup', title: 'Buyers' } } })).toMatchObject({ chatType: 'telegroup', chatId: '-100555', name: 'Buyers', text: 'No' });
    // A game's press (no data), a channel post's, a bot's, or something else: not recorded.
    expect(press({ data: undefined })).toBeNull();
    expect(press({ message: { ...offer, chat: { id: -100777, type: 'channel' } } })).toBeNull();
    expect(press({ from: { ...anna, is_bot: true } })).toBeNull();
    for (const odd of [undefined, null, 'press', { id: 5, from: anna, data: 'x' }, { id: 'q', data: 'x' }]) expect(pressOf(odd as unknown as BotCallbackQuery)).toBeNull();
    expect(press({ message: { ...offer, reply_markup: { inline_keyboard: 'broken' as unknown as [] } } })).toMatchObject({ text: 'order:no' });
  });
});
