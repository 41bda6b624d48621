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
  it('asks after 64 runs, then after 4 times as many each time', () => {
    expect(replans(64 + 256 + 1024)).toEqual([64, 64 + 256, 64 + 256 + 1024]);
  });

  it('asks at least once every 4,096 runs however long the statement runs', () => {
    const at = replans(64 + 256 + 1024 + 4096 * 3);
    const gaps = at.map((run, i) => run - (at[i - 1] ?? 0));
    expect(gaps).toEqual([64, 256, 1024, 4096, 4096, 4096]);
  });
});
