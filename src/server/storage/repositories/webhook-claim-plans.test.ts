import { describe, expect, it } from 'vitest';
import { followUpBatches } from './webhook-claim-plans.ts';

const row = (id: string, batch: string | null = null) => ({ id, batch_id: batch });

describe('followUpBatches', () => {
  it('sends each place of the runs as the batch its rows share, in place order, one row per lane in each', () => {
    const runs = [
      [row('a2', 'x'), row('a3', 'y'), row('a4')],
      [row('b2', 'x'), row('b3', 'y')],
      [row('c2', 'x')],
    ];
    expect(followUpBatches(runs).map((post) => post.map((r) => r.id))).toEqual([['a2', 'b2', 'c2'], ['a3', 'b3'], ['a4']]);
  });

  it('never puts rows of different batch ids, or rows without one, into one POST', () => {
    const runs = [[row('a2', 'x')], [row('b2', 'z')], [row('c2')], [row('d2')]];
    expect(followUpBatches(runs).map((post) => post.map((r) => r.id))).toEqual([['a2'], ['b2'], ['c2'], ['d2']]);
  });

  it('has nothing to send behind lanes without runs', () => {
    expect(followUpBatches([[], []])).toEqual([]);
  });
});
