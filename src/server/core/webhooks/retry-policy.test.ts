import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../testing/webhook-receiver.ts';
import { maxAttempts, nextAttemptAt, parseRetryAfter, retryDelaysMs } from './retry-policy.ts';

const now = new Date(Date.UTC(2030, 0, 1));
const delay = (attempts: number, random: () => number, retryAfter: number | null = null) =>
  nextAttemptAt(attempts, now, random, retryAfter)!.getTime() - now.getTime();

describe('retry schedule', () => {
  it('is 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h after the first attempt, then gives up', () => {
    const mid = () => 0.5;
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => delay(n, mid))).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
    expect(maxAttempts).toBe(8);
    expect(nextAttemptAt(8, now, mid)).toBeNull();
  });

  it('spreads each delay by up to 20% either way, repeatably for one seed', () => {
    const random = seededRandom(42);
    const seen = Array.from({ length: 500 }, () => delay(2, random));
    expect(Math.min(...seen)).toBeGreaterThanOrEqual(0.8 * 300_000);
    expect(Math.max(...seen)).toBeLessThanOrEqual(1.2 * 300_000);
    expect(new Set(seen).size).toBeGreaterThan(100);
    const again = seededRandom(42);
    expect(Array.from({ length: 500 }, () => delay(2, again))).toEqual(seen);
  });

  it('never comes back sooner than a Retry-After asked, and keeps the schedule when that is later', () => {
    expect(delay(1, () => 0.5, 60_000)).toBe(60_000);
    expect(delay(3, () => 0.5, 60_000)).toBe(retryDelaysMs[2]);
  });
});

describe('Retry-After', () => {
  it.each([
    ['120', 120_000],
    ['0', 0],
    [' 7 ', 7_000],
    [new Date(now.getTime() + 90_000).toUTCString(), 90_000],
    [new Date(now.getTime() - 90_000).toUTCString(), 0],
    ['999999999', 24 * 3_600_000],
  ])('reads %j as %d ms', (value, ms) => {
    expect(parseRetryAfter(value, now)).toBe(ms);
  });

  it.each([null, '', 'soon', '-5', '1.5'])('ignores %j', (value) => {
    expect(parseRetryAfter(value, now)).toBeNull();
  });
});
