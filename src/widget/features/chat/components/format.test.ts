import { describe, expect, it } from 'vitest';
import type { MessagePreview } from '../../../../contract/bff-chats.ts';
import { reasonText, viewWords } from '../view-words.ts';
import { words } from '../words.ts';
import { chatTitle, dateLocale, fullWhen, messageWhen, previewParts, shortWhen, transportName } from './format.ts';

// Dates are made in the machine's time zone and formatted in it, so the hours read the same wherever this runs.
const NOW = new Date(2030, 5, 15, 12, 0);
const at = (...parts: [number, number, number, number, number]) => new Date(...parts).toISOString();
const today = at(2030, 5, 15, 14, 30);
const thisYear = at(2030, 0, 5, 9, 7);
const lastYear = at(2029, 4, 5, 18, 45);

describe('times in the list and the history', () => {
  it('in Russian: the hour today, else the day with a Russian month, and the year when it is not this one', () => {
    expect(shortWhen(today, 'ru', NOW)).toBe('14:30');
    expect(shortWhen(thisYear, 'ru', NOW)).toBe('5 янв.');
    expect(shortWhen(lastYear, 'ru', NOW)).toBe('5 мая 2029 г.');
    expect(messageWhen(today, 'ru', NOW)).toBe('14:30');
    expect(messageWhen(thisYear, 'ru', NOW)).toBe('5 янв., 09:07');
    expect(fullWhen(thisYear, 'ru')).toMatch(/^5 янв\. 2030 г\.,? 09:07$/);
  });

  it('in English: English month names, whichever English the browser prefers', () => {
    expect(shortWhen(today, 'en', NOW)).toMatch(/^(02:30\sPM|14:30)$/);
    expect(shortWhen(thisYear, 'en', NOW)).toMatch(/^(Jan 5|5 Jan)$/);
    expect(shortWhen(lastYear, 'en', NOW)).toMatch(/May/);
    expect(shortWhen(lastYear, 'en', NOW)).toMatch(/2029/);
    expect(messageWhen(thisYear, 'en', NOW)).toMatch(/^(Jan 5|5 Jan), (09:07\sAM|09:07)$/);
    expect(fullWhen(thisYear, 'en')).toMatch(/Jan/);
  });

  it('are written in the browser’s variant of the frame’s language, else in the language', () => {
    expect(dateLocale('en', ['de-DE', 'en-GB', 'en-US'])).toBe('en-GB');
    expect(dateLocale('ru', ['de-DE', 'en-GB', 'ru-RU'])).toBe('ru-RU');
    expect(dateLocale('ru', ['de-DE', 'en-GB'])).toBe('ru');
    expect(dateLocale('en', [])).toBe('en');
  });
});

describe('what a chat and its last message are called', () => {
  const preview = (over: Partial<MessagePreview>): MessagePreview => ({
    message_id: 'm1',
    direction: 'inbound',
    status: 'delivered',
    kind: 'text',
    text: 'Hello',
    attachment_name: null,
    created_at: today,
    deleted: false,
    ...over,
  });

  it('says who sent it and what it holds', () => {
    expect(previewParts(preview({}), 'en')).toEqual({ by: '', file: false, text: 'Hello' });
    expect(previewParts(preview({ direction: 'outbound' }), 'en')).toEqual({ by: 'You: ', file: false, text: 'Hello' });
    expect(previewParts(preview({ direction: 'outbound' }), 'ru')).toEqual({ by: 'Вы: ', file: false, text: 'Hello' });
    expect(previewParts(preview({ kind: 'attachment', text: null }), 'en')).toEqual({ by: '', file: true, text: 'Attachment' });
    expect(previewParts(preview({ kind: 'attachment', text: null }), 'ru')).toEqual({ by: '', file: true, text: 'Вложение' });
    expect(previewParts(preview({ kind: 'attachment', text: null, attachment_name: 'a.pdf' }), 'ru')).toEqual({ by: '', file: true, text: 'a.pdf' });
    expect(previewParts(preview({ kind: 'template', text: null, direction: 'outbound' }), 'en')).toEqual({ by: 'You: ', file: false, text: 'Template' });
    expect(previewParts(preview({ kind: 'template', text: null, direction: 'outbound' }), 'ru')).toEqual({ by: 'Вы: ', file: false, text: 'Шаблон' });
  });

  it('names the chat by its name, handle, phone or id, else as unknown', () => {
    const none = { name: null, username: null, phone: null, chat_id: null };
    expect(chatTitle({ ...none, name: 'Alice Park', username: 'alice' }, 'ru')).toBe('Alice Park');
    expect(chatTitle({ ...none, username: 'alice', phone: '79001234567' }, 'en')).toBe('@alice');
    expect(chatTitle({ ...none, phone: '79001234567' }, 'en')).toBe('+79001234567');
    expect(chatTitle(none, 'en')).toBe('Unknown contact');
    expect(chatTitle(none, 'ru')).toBe('Неизвестный контакт');
  });

  it('names the transport in the language, or by its code when it has no name', () => {
    expect(transportName('telegram', 'en')).toBe('Telegram bot');
    expect(transportName('telegram', 'ru')).toBe('Telegram-бот');
    expect(transportName('avito', 'ru')).toBe('Авито');
    expect(transportName('wapi', 'ru')).toBe('WhatsApp Business');
    expect(transportName('telegroup', 'ru')).toBe('telegroup');
  });
});

describe('the chat screen’s words', () => {
  const { en, ru } = words;

  it('count chats waiting for an answer in the right plural form', () => {
    expect([1, 2, 5].map(en.list.waiting)).toEqual(['1 chat waits for an answer', '2 chats wait for an answer', '5 chats wait for an answer']);
    expect([1, 3, 5, 21].map(ru.list.waiting)).toEqual(['1 чат ждёт ответа', '3 чата ждут ответа', '5 чатов ждут ответа', '21 чат ждёт ответа']);
  });

  it('count unanswered messages, English as the tests know it', () => {
    expect(en.row.unanswered(3)).toBe('3 unanswered');
    expect([1, 4, 11].map(ru.row.unanswered)).toEqual(['1 сообщение без ответа', '4 сообщения без ответа', '11 сообщений без ответа']);
  });

  it('say a text is too long with the numbers written the language’s way', () => {
    const { en, ru } = viewWords;
    expect(en.composer.tooLong(4097, 4096)).toBe('4,097 characters: this messenger takes at most 4,096.');
    expect(ru.composer.tooLong(4097, 4096)).toBe('4\u00a0097 символов: этот мессенджер принимает не больше 4\u00a0096.');
    expect(ru.composer.tooLong(4091, 4090)).toBe('4\u00a0091 символ: этот мессенджер принимает не больше 4\u00a0090.');
  });

  it('quote a search in the language’s quotation marks', () => {
    expect(en.list.noMatch('bob')).toBe('No chats match “bob”.');
    expect(ru.list.noMatch('bob')).toBe('По запросу «bob» чатов не найдено.');
  });

  it('say why a message was not delivered, by the gateway’s code where there are no words for it', () => {
    const { en, ru } = viewWords;
    expect(en.message.failed(reasonText(en, 'chat_is_blocked'))).toBe('Not delivered: chat is blocked');
    expect(ru.message.failed(reasonText(ru, 'chat_is_blocked'))).toBe('Не доставлено: клиент заблокировал канал');
    expect(ru.message.failed(reasonText(ru, 'something_new'))).toBe('Не доставлено: something new');
    expect(ru.message.failed(null)).toBe('Не доставлено');
  });
});
