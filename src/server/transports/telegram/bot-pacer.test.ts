import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { botPacer } from './bot-pacer.ts';

describe('pacing a bot’s calls', () => {
  const limits = { bot: { limit: 3, interval: 1000 }, chat: { limit: 1, interval: 3000 } };
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Starts the calls, lets the clock run, and says when each one was made (ms since the start). */
  async function madeAt(calls: ((stamp: () => Promise<number>) => Promise<number>)[], runFor: number): Promise<number[]> {
    const all = Promise.all(calls.map((call) => call(async () => Date.now())));
    await vi.advanceTimersByTimeAsync(runFor);
    return all;
  }

  it('lets a bot make its limit of calls per interval and holds the rest for the next; another bot is not held', async () => {
    const pacer = botPacer(limits);
    const at = await madeAt(
      [...Array.from({ length: 7 }, (_, i) => (stamp: () => Promise<number>) => pacer.pace('1', String(100 + i), stamp)), (stamp) => pacer.pace('2', '100', stamp)],
      5000,
    );
    const bot1 = at.slice(0, 7);
    // The limit at once, then no more than the limit in any interval-long window, and nothing dropped.
    expect(bot1.slice(0, 3)).toEqual([0, 0, 0]);
    expect(Math.min(...bot1.slice(3))).toBeGreaterThanOrEqual(1000);
    for (const start of bot1) expect(bot1.filter((t) => t >= start && t < start + 1000).length).toBeLessThanOrEqual(3);
    expect(at[7]).toBe(0);
  });

  it('spaces the calls into one group, and keeps the bot’s other chats apart from that', async () => {
    const pacer = botPacer(limits);
    const at = await madeAt(
      [(stamp) => pacer.pace('1', '-100', stamp), (stamp) => pacer.pace('1', '-100', stamp), (stamp) => pacer.pace('1', '-100', stamp), (stamp) => pacer.pace('1', '42', stamp)],
      10_000,
    );
    expect(at).toEqual([0, 3000, 6000, 0]);
  });
});
