import type { ChatMessage } from '../store/message.ts';

/** A one-line message with its time, a gap under it (the height the history's rows are drawn at). */
export const ONE_LINE = 56;
/** One more line of text (the bubble's line height). */
const LINE = 20;
/** Characters on a line of a bubble at its widest, roughly: longer paragraphs wrap. */
const CHARS_PER_LINE = 60;
/** A quote above the text, a file's row, a row of buttons under it. */
const QUOTE = 44;
const FILE = 24;
const BUTTON_ROW = 36;

/**
 * A message's height before it is drawn, from what it holds: its lines (paragraphs, long ones wrapped), a quote, a
 * file, buttons. The history lays out the rows it has not measured at this height: the closer the guess, the less
 * the first drawn rows move when they are measured, and the fewer more rows the view mounts.
 */
export function estimateHeight(m: ChatMessage): number {
  let height = guessed.get(m);
  if (height === undefined) {
    const text = m.text ?? m.template?.text ?? '';
    let lines = 0;
    for (let from = 0; from <= text.length; ) {
      const newline = text.indexOf('\n', from);
      const end = newline < 0 ? text.length : newline;
      lines += Math.max(1, Math.ceil((end - from) / CHARS_PER_LINE));
      from = end + 1;
    }
    const buttons = m.keyboard?.buttons ?? [];
    const buttonRows = buttons.filter(Array.isArray).length || (buttons.length > 0 ? 1 : 0);
    height = ONE_LINE + (Math.max(1, lines) - 1) * LINE + (m.quoted_message ? QUOTE : 0) + (m.attachment ? FILE : 0) + buttonRows * BUTTON_ROW;
    guessed.set(m, height);
  }
  return height;
}

/** Guessed once per message: the history asks again for every message not yet measured whenever a row's size changes. */
const guessed = new WeakMap<ChatMessage, number>();
