import { describe, expect, it } from 'vitest';
import { memoryWindowCounter } from './window-counter.ts';

describe('in-process fixed-window counter', () => {
  it('counts per key within a window and starts again at one in the next', async () => {
    const counter = memoryWindowCounter();
    expect(await counter.increment('a', 10, 5000)).toBe(1);
    expect(await counter.increment('a', 10, 5000)).toBe(2);
    expect(await counter.increment('b', 10, 5000)).toBe(1);
    expect(await counter.increment('a', 11, 5000)).toBe(1);
    expect(await counter.increment('b', 11, 5000)).toBe(1);
  });
});
