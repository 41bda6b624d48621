import { describe, expect, it } from 'vitest';
import { imageOf, reportOf } from './avito-hook.ts';

const ACCOUNT = 94235311;
const CUSTOMER = 777001;
/** A notification as Avito posts it (version 3). */
const posted = (value: Record<string, unknown>) => ({
  id: 'wh-1',
  version: 'v3.0.0',
  timestamp: 1_795_000_000,
  payload: { type: 'message', value: { id: 'm-1', chat_id: 'u2i-1', user_id: ACCOUNT, author_id: CUSTOMER, created: 1_795_000_000, chat_type: 'u2i', type: 'text', ...value } },
});

describe('Avito’s notifications as the gateway records them', () => {
  it('records a customer’s words as inbound in the avito chat of Avito’s chat id', () => {
    expect(reportOf(posted({ content: { text: 'Добрый день' } }))).toEqual({
      account: String(ACCOUNT),
      arriving: { chatType: 'avito', chatId: 'u2i-1', username: null, phone: null, name: null, text: 'Добрый день', attachment: null, direction: 'inbound', messengerMessageId: 'm-1' },
    });
  });

  it('records the account’s own message as outbound, which may be a send of the gateway’s', () => {
    expect(reportOf(posted({ author_id: ACCOUNT, content: { text: 'Здравствуйте' } }))!.arriving).toMatchObject({ direction: 'outbound', echo: true });
  });

  it('records a link by its words, else its address', () => {
    expect(reportOf(posted({ type: 'link', content: { link: { text: 'see https://x.example', url: 'https://x.example' } } }))!.arriving.text).toBe('see https://x.example');
    expect(reportOf(posted({ type: 'link', content: { link: { url: 'https://x.example' } } }))!.arriving.text).toBe('https://x.example');
  });

  it('records a picture by its largest size, typed by its address', () => {
    const sizes = { '32x32': 'https://img.k.avito.ru/chat/32x32/1.png', '1280x960': 'https://img.k.avito.ru/chat/1280x960/1.png', '640x480': 'https://img.k.avito.ru/chat/640x480/1.png' };
    expect(reportOf(posted({ type: 'image', content: { image: { sizes } } }))!.arriving).toMatchObject({ text: null, attachment: { url: sizes['1280x960'], mimetype: 'image/png' } });
    expect(imageOf({ image: { sizes: { '100x100': 'https://img.k.avito.ru/chat/a' } } })).toEqual({ url: 'https://img.k.avito.ru/chat/a' });
    expect(imageOf({ image: { sizes: { '100x100': 'javascript:alert(1)', big: 'https://x' } } })).toBeNull();
    expect(imageOf({ image: { sizes: { '10x10': 'http://' } } })).toBeNull();
  });

  it.each([
    ['a system message', { type: 'system', author_id: 0, content: { text: 'Покупатель посмотрел номер' } }],
    ['a voice note', { type: 'voice', content: { voice: { voice_id: 'v' } } }],
    ['an ad’s card', { type: 'item', content: { item: { title: 'Велосипед' } } }],
    ['a deleted message', { type: 'deleted', content: {} }],
    ['a file Avito does not pass on', { type: 'file', content: {} }],
    ['empty words', { content: { text: '' } }],
    ['no chat', { chat_id: undefined, content: { text: 'x' } }],
    ['no author', { author_id: 'someone', content: { text: 'x' } }],
  ])('takes %s and drops it', (_what, value) => {
    expect(reportOf(posted(value))).toBeNull();
  });

  it('drops what is not a message notification', () => {
    for (const body of [null, {}, [], 'text', { payload: { type: 'chat_read', value: {} } }, { payload: { type: 'message', value: null } }]) expect(reportOf(body)).toBeNull();
  });
});
