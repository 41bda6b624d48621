import type { Keyboard } from '../../../contract/messages.ts';

/** A button as the max-bot dialect stores it: core checked, when the send was accepted, that each has its type and text. */
type Stored = { type: 'callback' | 'link' | 'message'; text: string; payload?: string; url?: string; intent?: string };
type Button = { type: string; text: string; payload?: string; url?: string };

/** MAX's inline keyboard, an attachment of the message it sits under. */
export interface InlineKeyboardAttachment {
  type: 'inline_keyboard';
  payload: { buttons: Button[][] };
}

/**
 * A stored keyboard (already checked against the max-bot dialect when the send was accepted: typed buttons with
 * text, a callback's payload, a link's url) as MAX's `inline_keyboard` attachment. Only the fields MAX's button of
 * each type has go along. A button's `intent` (the dialect keeps it) is not sent: MAX's official client
 * (@maxhub/max-bot-api 0.3.1) has no such field on any button; only the older published OpenAPI document (0.0.6)
 * listed it on callback buttons, and a field MAX no longer takes risks the send. Empty rows are left out.
 */
export function inlineKeyboard(keyboard: Keyboard | null): InlineKeyboardAttachment | undefined {
  if (!keyboard) return undefined;
  const rows = (keyboard.buttons as Stored[][])
    .filter((row) => Array.isArray(row) && row.length > 0)
    .map((row) =>
      row.map((b) => ({
        type: b.type,
        text: b.text,
        ...(b.type === 'callback' && b.payload !== undefined ? { payload: b.payload } : {}),
        ...(b.type === 'link' && b.url !== undefined ? { url: b.url } : {}),
      })),
    );
  return rows.length > 0 ? { type: 'inline_keyboard', payload: { buttons: rows } } : undefined;
}
