import { describe, expect, it } from 'vitest';
import { replyMarkup } from './bot-keyboard.ts';

describe('telegram keyboards as the Bot API takes them', () => {
  it('puts inline buttons under the message: a link or a callback each', () => {
    expect(
      replyMarkup({ buttons: [[{ text: 'Pay', url: 'https://pay.example.com/1' }, { text: 'Later', callback_data: 'later' }], [{ text: 'Call me', callback_data: 'call' }]] }),
    ).toEqual({
      inline_keyboard: [
        [
          { text: 'Pay', url: 'https://pay.example.com/1' },
          { text: 'Later', callback_data: 'later' },
        ],
        [{ text: 'Call me', callback_data: 'call' }],
      ],
    });
  });

  it('gives a reply keyboard its options, and removes one', () => {
    expect(replyMarkup({ reply_markup: 'reply', one_time_keyboard: true, resize_keyboard: true, buttons: [[{ text: 'Yes' }, { text: 'No' }]] })).toEqual({
      keyboard: [[{ text: 'Yes' }, { text: 'No' }]],
      one_time_keyboard: true,
      resize_keyboard: true,
    });
    expect(replyMarkup({ remove_keyboard: true, buttons: [] })).toEqual({ remove_keyboard: true });
  });

  it('sends no markup without a keyboard or without buttons', () => {
    expect(replyMarkup(null)).toBeUndefined();
    expect(replyMarkup({ buttons: [] })).toBeUndefined();
    expect(replyMarkup({ buttons: [[]] })).toBeUndefined();
  });
});
