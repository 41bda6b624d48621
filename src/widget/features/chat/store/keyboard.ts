import type { Keyboard } from '../../../../contract/messages.ts';

/** One button as the customer sees it: its words, and where it leads when it opens a page. */
export interface ShownButton {
  text: string;
  /** An http(s) address the button opens; null for buttons that answer the chat (payloads, callbacks, replies). */
  url: string | null;
}

/** A message's keyboard in rows: `inline` buttons sit under the message, `reply` ones replace the customer's keyboard. */
export interface ShownKeyboard {
  kind: 'inline' | 'reply';
  rows: ShownButton[][];
}

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);

function shownButton(raw: unknown): ShownButton | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const b = raw as Record<string, unknown>;
  // A business-API button may come without words: the customer then sees its payload.
  const words = text(b.text) ?? text(b.payload);
  if (words === null) return null;
  const url = text(b.url);
  // Only web addresses become links in the frame: anything else (javascript:, data:) stays plain words.
  return { text: words, url: url !== null && /^https?:\/\//i.test(url) ? url : null };
}

/**
 * The buttons a message carries, whichever dialect its transport speaks: the business API's flat list (one row),
 * or the rows of a telegram or MAX bot. Null for no keyboard, a keyboard that removes the customer's one, or one
 * with no button that has words.
 */
export function shownKeyboard(keyboard: Keyboard | null): ShownKeyboard | null {
  if (!keyboard || keyboard.remove_keyboard) return null;
  const rawRows: unknown[][] = keyboard.buttons.some(Array.isArray) ? keyboard.buttons.filter(Array.isArray) : [keyboard.buttons];
  const rows = rawRows.map((row) => row.map(shownButton).filter((b): b is ShownButton => b !== null)).filter((row) => row.length > 0);
  if (rows.length === 0) return null;
  return { kind: keyboard.reply_markup === 'reply' ? 'reply' : 'inline', rows };
}
