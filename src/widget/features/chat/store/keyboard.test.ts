import { describe, expect, it } from 'vitest';
import { shownKeyboard } from './keyboard.ts';

describe('a message keyboard as the frame shows it', () => {
  it('puts a business-API list of buttons in one row, showing a payload where a button has no words', () => {
    expect(shownKeyboard({ buttons: [{ text: 'Yes', payload: 'y' }, { payload: 'maybe' }] })).toEqual({
      kind: 'inline',
      rows: [[{ text: 'Yes', url: null }, { text: 'maybe', url: null }]],
    });
  });

  it('keeps a bot keyboard’s rows, with links for web addresses only', () => {
    const shown = shownKeyboard({
      reply_markup: 'inline',
      buttons: [
        [{ text: 'Site', url: 'https://example.com/a' }, { text: 'Pay', callback_data: 'pay' }],
        [{ type: 'link', text: 'Bad', url: 'javascript:alert(1)' }],
      ],
    });
    expect(shown).toEqual({
      kind: 'inline',
      rows: [
        [{ text: 'Site', url: 'https://example.com/a' }, { text: 'Pay', url: null }],
        [{ text: 'Bad', url: null }],
      ],
    });
  });

  it('tells a reply keyboard from an inline one', () => {
    expect(shownKeyboard({ reply_markup: 'reply', buttons: [[{ text: 'Menu' }]] })?.kind).toBe('reply');
  });

  it('shows nothing for no keyboard, a removed one, or buttons without words', () => {
    expect(shownKeyboard(null)).toBeNull();
    expect(shownKeyboard({ remove_keyboard: true, buttons: [] })).toBeNull();
    expect(shownKeyboard({ buttons: [[{ text: ' ' }], [null, 7, 'x']] })).toBeNull();
  });
});
