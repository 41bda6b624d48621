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

  it('spreads a bot’s calls evenly, its limit in any interval and never a burst of it; another bot is not held', async () => {
    const pacer = botPacer(limits);
    const at = await madeAt(
      [...Array.from({ length: 7 }, (_, i) => (stamp: () => Promise<number>) => pacer.pace('1', String(100 + i), stamp)), (stamp) => pacer.pace('2', '100', stamp)],
      5000,
    );
    const bot1 = at.slice(0, 7);
    // One call every interval / limit (334 ms), nothing dropped, so no interval-long window holds more than the limit.
    expect(bot1).toEqual([0, 334, 668, 1002, 1336, 1670, 2004]);
    for (const start of bot1) expect(bot1.filter((t) => t >= start && t < start + 1000).length).toBeLessThanOrEqual(3);
    expect(at[7]).toBe(0);
  });

  it('spaces the calls into one group, and keeps the bot’s other chats apart from that, at the bot’s own spacing', async () => {
    const pacer = botPacer(limits);
    const at = await madeAt(
      [(stamp) => pacer.pace('1', '-100', stamp), (stamp) => pacer.pace('1', '-100', stamp), (stamp) => pacer.pace('1', '-100', stamp), (stamp) => pacer.pace('1', '42', stamp)],
      10_000,
    );
    expect(at).toEqual([0, 3000, 6000, 334]);
  });
});
