import type { Keyboard } from '../../../contract/messages.ts';

type Button = { text?: string; url?: string; callback_data?: string };

/**
 * A stored keyboard (already checked against the telegram dialect when the send was accepted) as the Bot API's
 * `reply_markup`: inline buttons under the message, a reply keyboard in place of the customer's, or its removal.
 */
export function replyMarkup(keyboard: Keyboard | null): Record<string, unknown> | undefined {
  if (!keyboard) return undefined;
  if (keyboard.remove_keyboard) return { remove_keyboard: true, ...(keyboard.selective ? { selective: true } : {}) };
  const rows = (keyboard.buttons as Button[][]).filter((row) => Array.isArray(row) && row.length > 0);
  if (rows.length === 0) return undefined;
  if (keyboard.reply_markup === 'reply') {
    return {
      keyboard: rows.map((row) => row.map((b) => ({ text: b.text ?? '' }))),
      ...(keyboard.one_time_keyboard ? { one_time_keyboard: true } : {}),
      ...(keyboard.resize_keyboard ? { resize_keyboard: true } : {}),
      ...(keyboard.selective ? { selective: true } : {}),
    };
  }
  return {
    inline_keyboard: rows.map((row) =>
      row.map((b) => (b.url !== undefined ? { text: b.text ?? b.url, url: b.url } : { text: b.text ?? b.callback_data ?? '', callback_data: b.callback_data ?? '' })),
    ),
  };
}
