import { describe, expect, it } from 'vitest';
import { inlineKeyboard } from './bot-keyboard.ts';

describe('max-bot keyboards as MAX takes them', () => {
  it('puts the rows under the message as an inline_keyboard attachment, each button with the fields MAX has for its type (no intent)', () => {
    expect(
      inlineKeyboard({
        buttons: [
          [
            { type: 'callback', text: 'Оплатить', payload: 'pay:42', intent: 'positive' },
            { type: 'link', text: 'Отследить', url: 'https://track.example.com/42' },
          ],
          [{ type: 'message', text: 'Позвоните мне', intent: 'negative' }],
        ],
      }),
    ).toEqual({
      type: 'inline_keyboard',
      payload: {
        buttons: [
          [
            { type: 'callback', text: 'Оплатить', payload: 'pay:42' },
            { type: 'link', text: 'Отследить', url: 'https://track.example.com/42' },
          ],
          [{ type: 'message', text: 'Позвоните мне' }],
        ],
      },
    });
  });

  it('sends no keyboard without one or without buttons', () => {
    expect(inlineKeyboard(null)).toBeUndefined();
    expect(inlineKeyboard({ buttons: [] })).toBeUndefined();
    expect(inlineKeyboard({ buttons: [[]] })).toBeUndefined();
  });
});
