import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AnswerDropped, callPacer } from './call-pacer.ts';

describe('pacing a bot’s calls per chat', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('spaces the sends into every paced chat, and leaves edits and deletes (no chat) to the bot’s pace alone', async () => {
    const pacer = callPacer({ bot: { limit: 10, interval: 1000 }, chat: { limit: 1, interval: 600 } }, () => true);
    const stamp = async () => Date.now();
    const all = Promise.all([
      pacer.pace('bot', '42', stamp),
      pacer.pace('bot', '42', stamp),
      pacer.pace('bot', '42', stamp),
      pacer.pace('bot', '43', stamp),
      pacer.pace('bot', null, stamp),
    ]);
    await vi.advanceTimersByTimeAsync(5000);
    // The bot's own pace spreads its calls 100 ms apart (10 a second).
    expect(await all).toEqual([0, 600, 1200, 100, 200]);
  });

  it('keeps the bot’s limit over the calls actually made when a stalled event loop fires the due ones late', async () => {
    const pacer = callPacer({ bot: { limit: 5, interval: 1000 }, chat: { limit: 1, interval: 600 } }, () => false);
    const made: number[] = [];
    const stamp = async () => {
      made.push(Date.now());
    };
    const all = Promise.all(Array.from({ length: 15 }, () => pacer.pace('bot', null, stamp)));
    await vi.advanceTimersByTimeAsync(0);
    // The process is busy from 0 to 1500 ms (the fake clock jumps, firing what was due only at its end): the five
    // calls due at 1000 ms go at 1500 ms.
    (Date as unknown as { clock: { jump(ms: number): void } }).clock.jump(1500);
    await vi.advanceTimersByTimeAsync(3000);
    await all;
    expect(made).toHaveLength(15);
    for (const start of made) expect(made.filter((at) => at >= start && at < start + 1000).length).toBeLessThanOrEqual(5);
  });
});

describe('pacing answers to presses apart from sends', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const limits = {
    bot: { limit: 25, interval: 1000 },
    chat: { limit: 1, interval: 600 },
    answers: { bot: { limit: 4, interval: 1000 }, chat: { limit: 1, interval: 600 }, maxWaitMs: 1000 },
  };
  /** Each call's time, or the reason it was not made. */
  const outcome = (p: Promise<number>) => p.then((at) => at, (err: unknown) => (err instanceof AnswerDropped ? 'dropped' : `failed: ${String(err)}`));

  it('never holds a send in the same chat up, however many presses are answered there', async () => {
    const pacer = callPacer(limits, () => true);
    const made: string[] = [];
    const stamp = (what: string) => async () => {
      made.push(what);
      return Date.now();
    };
    const answers = Array.from({ length: 40 }, (_, i) => outcome(pacer.answer('bot', '42', stamp(`answer ${i}`))));
    const send = pacer.pace('bot', '42', stamp('send'));
    await vi.advanceTimersByTimeAsync(5000);
    expect(await send).toBe(0);
    // Two answers fit within the second an answer may wait (at 0 and 600 ms); the rest are dropped, never made.
    expect(await Promise.all(answers)).toEqual([0, 600, ...Array<string>(38).fill('dropped')]);
    expect(made.filter((m) => m.startsWith('answer'))).toEqual(['answer 0', 'answer 1']);
  });

  it('drops an answer whose turn is more than the longest wait away, with AnswerDropped, and keeps no turn for it', async () => {
    const pacer = callPacer(limits, () => true);
    const call = vi.fn(async () => Date.now());
    const first = [outcome(pacer.answer('bot', '42', call)), outcome(pacer.answer('bot', '42', call))];
    // The chat's queue is full: the next turn would be 1200 ms away.
    const late = pacer.answer('bot', '42', call);
    await expect(late).rejects.toBeInstanceOf(AnswerDropped);
    await expect(late).rejects.toThrow('the answer would wait 1200 ms for its turn');
    await vi.advanceTimersByTimeAsync(1000);
    expect(await Promise.all(first)).toEqual([0, 600]);
    expect(call).toHaveBeenCalledTimes(2);
    // The dropped answer took no turn: the next one goes at 1200 ms, as the second answer's spacing says.
    const next = outcome(pacer.answer('bot', '42', call));
    await vi.advanceTimersByTimeAsync(1000);
    expect(await next).toBe(1200);
  });

  it('paces answers whose chat is not known by the bot alone, and keeps each bot’s and chat’s turns apart', async () => {
    const pacer = callPacer(limits, () => true);
    const stamp = async () => Date.now();
    const unknown = Array.from({ length: 6 }, () => outcome(pacer.answer('bot', null, stamp)));
    // Another chat of the same bot waits for the bot's next turn; another bot does not wait at all.
    const otherChat = outcome(pacer.answer('bot', '43', stamp));
    const otherBot = outcome(pacer.answer('bot2', '42', stamp));
    await vi.advanceTimersByTimeAsync(5000);
    expect(await Promise.all(unknown)).toEqual([0, 250, 500, 750, 1000, 'dropped']);
    expect(await otherChat).toBe('dropped');
    expect(await otherBot).toBe(0);
  });
});

describe('the pacer’s memory', () => {
  it('forgets the bot or chat used least recently once full, not the one remembered first', () => {
    const pacer = callPacer({ bot: { limit: 10, interval: 1000 }, chat: { limit: 1, interval: 600 } }, () => true, { bots: 2, chats: 2 });
    const done = async () => true;
    // A pace is looked up when a call is paced; these calls need not have run for it.
    void pacer.pace('bot', 'a', done);
    void pacer.pace('bot', 'b', done);
    // `a` is used again, so `b` is now the one idle longest.
    void pacer.pace('bot', 'a', done);
    void pacer.pace('bot', 'c', done);
    expect([pacer.remembers('bot', 'a'), pacer.remembers('bot', 'b'), pacer.remembers('bot', 'c')]).toEqual([true, false, true]);

    for (const bot of ['one', 'two', 'one', 'three']) void pacer.pace(bot, null, done);
    expect(['one', 'two', 'three'].map((bot) => pacer.remembers(bot))).toEqual([true, false, true]);
  });
});
