import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../store/message.ts';
import { estimateHeight, ONE_LINE } from './history-estimate.ts';

const message = (over: Partial<ChatMessage>): ChatMessage => ({ text: null, template: null, quoted_message: null, attachment: null, keyboard: null, ...over }) as ChatMessage;

describe('a message height guessed before it is drawn', () => {
  it('is one line for a short text or none, and a line more per paragraph', () => {
    expect(estimateHeight(message({ text: 'Hello' }))).toBe(ONE_LINE);
    expect(estimateHeight(message({ text: null }))).toBe(ONE_LINE);
    expect(estimateHeight(message({ text: 'Hello\nsecond line' }))).toBe(ONE_LINE + 20);
  });

  it('wraps a long paragraph', () => {
    expect(estimateHeight(message({ text: 'x'.repeat(130) }))).toBe(ONE_LINE + 2 * 20);
  });

  it('adds a quote, a file and rows of buttons', () => {
    const quoted = { message_id: 'm', direction: 'inbound', text: 'Hi', attachment_name: null, deleted: false } as ChatMessage['quoted_message'];
    expect(estimateHeight(message({ text: 'Yes', quoted_message: quoted }))).toBeGreaterThan(ONE_LINE);
    const keyboard = { buttons: [[{ text: 'A' }], [{ text: 'B' }]] } as unknown as ChatMessage['keyboard'];
    expect(estimateHeight(message({ text: 'Pick', keyboard }))).toBe(ONE_LINE + 2 * 36);
  });
});
