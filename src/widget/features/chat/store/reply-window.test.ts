import { describe, expect, it } from 'vitest';
import type { LoadedHistory } from './reply-window.ts';
import { sending, type ChatMessage } from './message.ts';
import { replyWindow } from './reply-window.ts';

const T0 = Date.parse('2026-11-25T12:00:00Z');
const HOUR = 60 * 60 * 1000;
const message = (direction: 'inbound' | 'outbound', at: number): ChatMessage => ({ ...sending(`k${at}`, 'x', new Date(at)), direction, status: 'delivered' });
const history = (messages: ChatMessage[], olderCursor: string | null = null, phase: LoadedHistory['phase'] = 'ready') => ({ messages, olderCursor, phase });

describe('the reply window the frame shows', () => {
  it('is open until the hours since the customer’s last message have passed, whatever was sent since', () => {
    const h = history([message('inbound', T0), message('outbound', T0 + 20 * HOUR)]);
    expect(replyWindow(h, 24, T0 + 24 * HOUR - 1)).toBe('open');
    expect(replyWindow(h, 24, T0 + 24 * HOUR)).toBe('closed');
  });

  it('is closed when the whole history holds no message of the customer, unknown while older pages are unread', () => {
    expect(replyWindow(history([message('outbound', T0)]), 24, T0)).toBe('closed');
    expect(replyWindow(history([message('outbound', T0)], 'older'), 24, T0)).toBe('unknown');
    expect(replyWindow(history([], null, 'loading'), 24, T0)).toBe('unknown');
  });

  it('is always open on a transport without a window', () => {
    expect(replyWindow(history([]), null, T0)).toBe('open');
  });
});
