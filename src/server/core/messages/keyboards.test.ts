import { describe, expect, it } from 'vitest';
import type { Keyboard } from '../../../contract/messages.ts';
import { AppError } from '../errors.ts';
import { normalizeKeyboard } from './keyboards.ts';

/** The fields a refused keyboard names, in order. */
function refused(kind: Parameters<typeof normalizeKeyboard>[0], keyboard: Keyboard): { field: string; message: string }[] {
  try {
    normalizeKeyboard(kind, keyboard);
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('VALIDATION_ERROR');
    return ((err as AppError).data as { fields: { field: string; message: string }[] }).fields;
  }
  throw new Error('keyboard was accepted');
}

const fieldsOf = (kind: Parameters<typeof normalizeKeyboard>[0], keyboard: Keyboard) => refused(kind, keyboard).map((f) => f.field);
const buttons = (n: number, make: (i: number) => unknown) => Array.from({ length: n }, (_, i) => make(i));

describe('a transport without keyboards', () => {
  it('refuses any keyboard on the keyboard field', () => {
    expect(refused(null, { buttons: [{ payload: 'x' }] })).toEqual([{ field: 'keyboard', message: 'this transport has no keyboards' }]);
  });
});

describe('business-API keyboards', () => {
  it('keeps a valid list as it is, without warnings', () => {
    const keyboard = { buttons: [{ text: 'Yes', type: 'reply', payload: 'yes' }, { payload: 'no' }] };
    expect(normalizeKeyboard('business', keyboard)).toEqual({ keyboard, warnings: [] });
  });

  it('sends the first 10 buttons and reports how many were dropped', () => {
    const result = normalizeKeyboard('business', { buttons: buttons(13, (i) => ({ text: `B${i}`, payload: `p${i}` })) });
    expect(result.keyboard?.buttons).toEqual(buttons(10, (i) => ({ text: `B${i}`, payload: `p${i}` })));
    expect(result.warnings).toEqual(['keyboard.buttons: 3 buttons beyond the first 10 were dropped']);
  });

  it('says "button" for one dropped button', () => {
    expect(normalizeKeyboard('business', { buttons: buttons(11, (i) => ({ payload: `p${i}` })) }).warnings).toEqual([
      'keyboard.buttons: 1 button beyond the first 10 were dropped',
    ]);
  });

  it('refuses text over 20 characters, counting characters rather than bytes', () => {
    expect(normalizeKeyboard('business', { buttons: [{ text: 'Я'.repeat(20), payload: 'p' }] }).warnings).toEqual([]);
    expect(refused('business', { buttons: [{ payload: 'a' }, { text: 'x'.repeat(21), payload: 'p' }] })).toEqual([
      { field: 'keyboard.buttons.1.text', message: 'must be at most 20 characters' },
    ]);
  });

  it('refuses a button without payload, or with an empty one', () => {
    expect(fieldsOf('business', { buttons: [{ text: 'Hi' }, { text: 'Yo', payload: '' }] })).toEqual([
      'keyboard.buttons.0.payload',
      'keyboard.buttons.1.payload',
    ]);
  });

  it('refuses buttons that are not objects and fields of other dialects', () => {
    expect(fieldsOf('business', { buttons: [[{ payload: 'x' }], { payload: 'p', callback_data: 'c' }, { payload: 7 }] })).toEqual([
      'keyboard.buttons.0',
      'keyboard.buttons.1.callback_data',
      'keyboard.buttons.2.payload',
    ]);
  });

  it('refuses an empty button list', () => {
    expect(fieldsOf('business', { buttons: [] })).toEqual(['keyboard.buttons']);
  });

  it('does not check buttons that are dropped anyway', () => {
    const list = [...buttons(10, (i) => ({ payload: `p${i}` })), { text: 'x'.repeat(40) }];
    expect(normalizeKeyboard('business', { buttons: list }).keyboard?.buttons).toHaveLength(10);
  });

  it('ignores telegram-only options with a warning', () => {
    const result = normalizeKeyboard('business', { reply_markup: 'reply', remove_keyboard: true, buttons: [{ payload: 'p' }] });
    expect(result.keyboard).toEqual({ buttons: [{ payload: 'p' }] });
    expect(result.warnings).toEqual([
      'keyboard.reply_markup: only telegram-bot keyboards have this option; ignored',
      'keyboard.remove_keyboard: only telegram-bot keyboards have this option; ignored',
    ]);
  });
});

describe('telegram-bot keyboards', () => {
  const inline = (text: string, i = 0) => ({ text, callback_data: `cb${i}` });

  it('defaults to an inline keyboard and keeps rows', () => {
    const result = normalizeKeyboard('telegram_bot', { buttons: [[inline('A', 1), { text: 'Site', url: 'https://example.org' }], [inline('B', 2)]] });
    expect(result).toEqual({
      keyboard: { reply_markup: 'inline', buttons: [[inline('A', 1), { text: 'Site', url: 'https://example.org' }], [inline('B', 2)]] },
      warnings: [],
    });
  });

  it('sends at most 12 buttons in total, in reading order, and drops emptied rows', () => {
    const rows = buttons(5, (r) => buttons(3, (b) => inline(`R${r}B${b}`, r * 3 + b)));
    const result = normalizeKeyboard('telegram_bot', { buttons: rows });
    expect(result.keyboard?.buttons).toEqual(rows.slice(0, 4));
    expect(result.warnings).toEqual(['keyboard.buttons: 3 buttons beyond the first 12 were dropped']);
  });

  it('does not send inline buttons with text over 64 characters, and counts the limit over the rest', () => {
    const long = 'x'.repeat(65);
    const rows = [[inline(long, 0), inline('ok', 1)], buttons(12, (i) => inline(`b${i}`, i + 2)), [inline(long, 99)]];
    const result = normalizeKeyboard('telegram_bot', { buttons: rows });
    expect(result.keyboard?.buttons).toEqual([[inline('ok', 1)], buttons(11, (i) => inline(`b${i}`, i + 2))]);
    expect(result.warnings).toEqual([
      'keyboard.buttons.0.0, keyboard.buttons.2.0: inline buttons with text over 64 characters were not sent',
      'keyboard.buttons: 1 button beyond the first 12 were dropped',
    ]);
    expect(normalizeKeyboard('telegram_bot', { buttons: [[inline('x'.repeat(64))]] }).warnings).toEqual([]);
  });

  it('sends no keyboard when every button was dropped, and says so', () => {
    const result = normalizeKeyboard('telegram_bot', { buttons: [[inline('y'.repeat(70))]] });
    expect(result.keyboard).toBeNull();
    expect(result.warnings).toEqual([
      'keyboard.buttons.0.0: an inline button with text over 64 characters was not sent',
      'keyboard: no button is left to send; the message goes without a keyboard',
    ]);
  });

  it('checks callback_data in UTF-8 bytes: 64 pass, 65 are refused', () => {
    const ok = 'я'.repeat(32); // 64 bytes
    expect(normalizeKeyboard('telegram_bot', { buttons: [[{ text: 'a', callback_data: ok }]] }).warnings).toEqual([]);
    expect(refused('telegram_bot', { buttons: [[{ text: 'a', callback_data: `${ok}x` }]] })).toEqual([
      { field: 'keyboard.buttons.0.0.callback_data', message: 'must be 1 to 64 bytes (UTF-8)' },
    ]);
    expect(fieldsOf('telegram_bot', { buttons: [[{ text: 'a', callback_data: '' }]] })).toEqual(['keyboard.buttons.0.0.callback_data']);
  });

  it('refuses an inline url that is not a URL', () => {
    expect(refused('telegram_bot', { buttons: [[{ text: 'a', url: 'not a url' }, { text: 'b', url: 'ftp://x.org/f' }]] })).toEqual([
      { field: 'keyboard.buttons.0.0.url', message: 'must be an http, https or tg URL' },
      { field: 'keyboard.buttons.0.1.url', message: 'must be an http, https or tg URL' },
    ]);
    expect(normalizeKeyboard('telegram_bot', { buttons: [[{ text: 'me', url: 'tg://user?id=1' }]] }).warnings).toEqual([]);
  });

  it('needs exactly one of url or callback_data on an inline button', () => {
    expect(fieldsOf('telegram_bot', { buttons: [[{ text: 'none' }, { text: 'both', url: 'https://a.b', callback_data: 'c' }]] })).toEqual([
      'keyboard.buttons.0.0',
      'keyboard.buttons.0.1',
    ]);
  });

  it('labels an inline button given without text with its action', () => {
    const result = normalizeKeyboard('telegram_bot', { buttons: [[{ callback_data: 'menu' }, { url: `https://example.org/${'p'.repeat(80)}` }]] });
    const [first, second] = (result.keyboard?.buttons[0] ?? []) as { text: string }[];
    expect(first).toEqual({ text: 'menu', callback_data: 'menu' });
    expect([...second!.text]).toHaveLength(64);
    expect(second!.text.endsWith('…')).toBe(true);
  });

  it('reply buttons need text, refuse text over 64 characters, and take no inline fields', () => {
    const keyboard: Keyboard = {
      reply_markup: 'reply',
      buttons: [[{ text: 'ok' }, {}, { text: 'z'.repeat(65) }, { text: 'a', url: 'https://a.b' }, { text: 'b', callback_data: 'x' }]],
    };
    expect(refused('telegram_bot', keyboard)).toEqual([
      { field: 'keyboard.buttons.0.1.text', message: 'is required for reply buttons' },
      { field: 'keyboard.buttons.0.2.text', message: 'must be at most 64 characters' },
      { field: 'keyboard.buttons.0.3.url', message: 'only inline buttons have it' },
      { field: 'keyboard.buttons.0.4.callback_data', message: 'only inline buttons have it' },
    ]);
  });

  it('keeps the options of a reply keyboard', () => {
    const keyboard: Keyboard = { reply_markup: 'reply', one_time_keyboard: true, resize_keyboard: false, selective: true, buttons: [[{ text: 'Hi' }]] };
    expect(normalizeKeyboard('telegram_bot', keyboard)).toEqual({ keyboard, warnings: [] });
  });

  it('ignores reply-only options on an inline keyboard, with a warning each', () => {
    const result = normalizeKeyboard('telegram_bot', { one_time_keyboard: true, resize_keyboard: true, buttons: [[inline('A')]] });
    expect(result.keyboard).toEqual({ reply_markup: 'inline', buttons: [[inline('A')]] });
    expect(result.warnings).toEqual([
      'keyboard.one_time_keyboard: only reply keyboards have this option; ignored',
      'keyboard.resize_keyboard: only reply keyboards have this option; ignored',
    ]);
  });

  it('remove_keyboard removes the reply keyboard and carries nothing else', () => {
    expect(normalizeKeyboard('telegram_bot', { remove_keyboard: true, selective: true, buttons: [] })).toEqual({
      keyboard: { reply_markup: 'reply', remove_keyboard: true, selective: true, buttons: [] },
      warnings: [],
    });
    const withButtons = normalizeKeyboard('telegram_bot', { remove_keyboard: true, one_time_keyboard: true, buttons: [[{ text: 'x' }]] });
    expect(withButtons.keyboard).toEqual({ reply_markup: 'reply', remove_keyboard: true, buttons: [] });
    expect(withButtons.warnings).toEqual([
      'keyboard.buttons: ignored, because remove_keyboard removes the keyboard',
      'keyboard.one_time_keyboard: a removed keyboard has no layout; ignored',
    ]);
  });

  it('refuses remove_keyboard on an inline keyboard', () => {
    expect(fieldsOf('telegram_bot', { reply_markup: 'inline', remove_keyboard: true, buttons: [] })).toEqual(['keyboard.remove_keyboard']);
  });

  it('remove_keyboard false is an ordinary keyboard', () => {
    expect(normalizeKeyboard('telegram_bot', { remove_keyboard: false, buttons: [[inline('A')]] }).keyboard).toEqual({
      reply_markup: 'inline',
      buttons: [[inline('A')]],
    });
  });

  it('refuses rows that are not arrays, empty rows, foreign fields and an empty keyboard', () => {
    expect(fieldsOf('telegram_bot', { buttons: [inline('flat'), [], [{ text: 'a', payload: 'p' }]] })).toEqual([
      'keyboard.buttons.0',
      'keyboard.buttons.1',
      'keyboard.buttons.2.0.payload',
    ]);
    expect(fieldsOf('telegram_bot', { buttons: [] })).toEqual(['keyboard.buttons']);
  });
});

describe('max-bot keyboards', () => {
  it('keeps valid rows of typed buttons', () => {
    const keyboard = {
      buttons: [
        [{ type: 'callback', text: 'Yes', payload: 'yes', intent: 'positive' }, { type: 'callback', text: 'No', payload: 'no', intent: 'negative' }],
        [{ type: 'link', text: 'Site', url: 'https://example.org' }, { type: 'message', text: 'Hello' }],
      ],
    };
    expect(normalizeKeyboard('max_bot', keyboard)).toEqual({ keyboard, warnings: [] });
  });

  it('drops the intent of a button that is not a callback, saying so: MAX colours callback buttons only', () => {
    const result = normalizeKeyboard('max_bot', {
      buttons: [[{ type: 'callback', text: 'Yes', payload: 'yes', intent: 'positive' }, { type: 'message', text: 'Hello', intent: 'default' }]],
    });
    expect(result.keyboard).toEqual({ buttons: [[{ type: 'callback', text: 'Yes', payload: 'yes', intent: 'positive' }, { type: 'message', text: 'Hello' }]] });
    expect(result.warnings).toEqual(['keyboard.buttons.0.1.intent: only callback buttons have an intent in max bots; it was dropped']);
  });

  it('refuses what MAX would refuse after accepting the send: text beyond 128 characters or empty, payload beyond 1024, url beyond 2048', () => {
    expect(
      refused('max_bot', {
        buttons: [
          [{ type: 'message', text: 'я'.repeat(129) }, { type: 'message', text: '' }],
          [{ type: 'callback', text: 'p', payload: 'x'.repeat(1025) }, { type: 'link', text: 'u', url: `https://example.org/${'a'.repeat(2029)}` }],
        ],
      }),
    ).toEqual([
      { field: 'keyboard.buttons.0.1.text', message: 'must not be empty' },
      { field: 'keyboard.buttons.0.0.text', message: 'must be at most 128 characters' },
      { field: 'keyboard.buttons.1.0.payload', message: 'must be at most 1024 characters' },
      { field: 'keyboard.buttons.1.1.url', message: 'must be at most 2048 characters' },
    ]);
    expect(normalizeKeyboard('max_bot', { buttons: [[{ type: 'callback', text: 'я'.repeat(128), payload: 'x'.repeat(1024) }]] }).warnings).toEqual([]);
  });

  it('requires a known type and text on every button', () => {
    expect(refused('max_bot', { buttons: [[{ text: 'no type' }, { type: 'open_app', text: 'x' }, { type: 'message' }]] })).toEqual([
      { field: 'keyboard.buttons.0.0.type', message: 'is required' },
      { field: 'keyboard.buttons.0.1.type', message: 'must be one of: callback, link, message' },
      { field: 'keyboard.buttons.0.2.text', message: 'is required' },
    ]);
  });

  it('requires payload on callback buttons and only there', () => {
    expect(fieldsOf('max_bot', { buttons: [[{ type: 'callback', text: 'a' }, { type: 'message', text: 'b', payload: 'p' }]] })).toEqual([
      'keyboard.buttons.0.0.payload',
      'keyboard.buttons.0.1.payload',
    ]);
  });

  it('requires a valid url on link buttons and only there', () => {
    expect(
      fieldsOf('max_bot', {
        buttons: [[{ type: 'link', text: 'a' }], [{ type: 'link', text: 'b', url: 'mailto:x@y.z' }], [{ type: 'callback', text: 'c', payload: 'p', url: 'https://a.b' }]],
      }),
    ).toEqual(['keyboard.buttons.0.0.url', 'keyboard.buttons.1.0.url', 'keyboard.buttons.2.0.url']);
  });

  it('refuses an unknown intent', () => {
    expect(refused('max_bot', { buttons: [[{ type: 'message', text: 'a', intent: 'danger' }]] })).toEqual([
      { field: 'keyboard.buttons.0.0.intent', message: 'must be one of: default, positive, negative' },
    ]);
  });

  it('refuses a flat list, empty rows and an empty keyboard', () => {
    expect(fieldsOf('max_bot', { buttons: [{ type: 'message', text: 'a' }, []] })).toEqual(['keyboard.buttons.0', 'keyboard.buttons.1']);
    expect(fieldsOf('max_bot', { buttons: [] })).toEqual(['keyboard.buttons']);
  });

  it('ignores telegram-only options with a warning', () => {
    const result = normalizeKeyboard('max_bot', { selective: true, buttons: [[{ type: 'message', text: 'a' }]] });
    expect(result.warnings).toEqual(['keyboard.selective: only telegram-bot keyboards have this option; ignored']);
    expect(result.keyboard).toEqual({ buttons: [[{ type: 'message', text: 'a' }]] });
  });
});
