import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../testing/manual-clock.ts';
import { phoneLookups } from './lookups.ts';

describe('phone lookups of a personal account', () => {
  it('asks one number at a time, spaced, and answers again from the cache', async () => {
    const clock = new ManualClock(0);
    const asked: { phone: string; at: number }[] = [];
    const lookups = phoneLookups({
      gapMs: 3_000,
      now: () => clock.now().getTime(),
      // The clock moves by the wait: no real time passes.
      sleep: async (ms) => clock.advance(ms),
    });
    const ask = (phone: string) => async () => {
      asked.push({ phone, at: clock.now().getTime() });
      return { exists: phone !== '000' };
    };
    const found = (a: { exists: boolean }) => a.exists;
    // A CRM checking five numbers at once gets them asked one after another, 3 s apart.
    const answers = await Promise.all(['111', '222', '333', '000', '111'].map((p) => lookups.resolve('ch', p, ask(p), found)));
    expect(answers.map((a) => a.exists)).toEqual([true, true, true, false, true]);
    expect(asked.map((a) => a.phone)).toEqual(['111', '222', '333', '000']);
    expect(asked.map((a) => a.at)).toEqual([0, 3_000, 6_000, 9_000]);
    // Cached: a number found is not asked again within the day; one not found is asked again after an hour.
    clock.advance(2 * 3_600_000);
    await lookups.resolve('ch', '111', ask('111'), found);
    await lookups.resolve('ch', '000', ask('000'), found);
    expect(asked.map((a) => a.phone)).toEqual(['111', '222', '333', '000', '000']);
    // Another channel has its own turn.
    await lookups.resolve('other', '111', ask('111'), found);
    expect(asked).toHaveLength(6);
  });
});
