import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../contract/realtime.ts';
import { unansweredCounts } from './unanswered-counts.ts';

const update = (chatRef: string, position: number, count: number): Extract<StreamEvent, { name: 'chat.unanswered_update' }> => ({
  id: `e${position}.unanswered`,
  position,
  name: 'chat.unanswered_update',
  created_at: '2030-01-01T00:00:00.000Z',
  payload: { chat_ref: chatRef, channel_id: 'c1', chat_type: 'telegram', chat_id: chatRef, unanswered_count: count },
});

describe('unanswered counts of a frame', () => {
  it('sums the latest count of every chat', () => {
    const counts = unansweredCounts();
    expect(counts.take(update('a', 1, 1))).toBe(true);
    expect(counts.take(update('b', 2, 3))).toBe(true);
    expect(counts.take(update('a', 3, 2))).toBe(true);
    expect(counts.total()).toBe(5);
  });

  it('keeps the value of the highest position when pushes arrive out of order', () => {
    const counts = unansweredCounts();
    counts.take(update('a', 7, 0));
    expect(counts.take(update('a', 5, 4))).toBe(false);
    expect(counts.total()).toBe(0);
  });

  it('says nothing changed when the count is the same', () => {
    const counts = unansweredCounts();
    counts.take(update('a', 1, 2));
    expect(counts.take(update('a', 2, 2))).toBe(false);
    expect(counts.total()).toBe(2);
  });
});
