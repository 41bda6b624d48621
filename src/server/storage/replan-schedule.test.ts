import { describe, expect, it } from 'vitest';
import { ReplanSchedule } from './replan-schedule.ts';

/** The runs after which the schedule asked for a new statement, over `total` runs. */
function replans(total: number): number[] {
  const schedule = new ReplanSchedule();
  const at: number[] = [];
  for (let run = 1; run <= total; run++) if (schedule.ran()) at.push(run);
  return at;
}

describe('ReplanSchedule', () => {
  it('asks after 16 runs, then after 4 times as many each time', () => {
    expect(replans(16 + 64 + 256)).toEqual([16, 16 + 64, 16 + 64 + 256]);
  });

  it('asks at least once every 4,096 runs however long the statement runs', () => {
    const at = replans(16 + 64 + 256 + 1024 + 4096 * 3);
    const gaps = at.map((run, i) => run - (at[i - 1] ?? 0));
    expect(gaps).toEqual([16, 64, 256, 1024, 4096, 4096, 4096]);
  });
});
