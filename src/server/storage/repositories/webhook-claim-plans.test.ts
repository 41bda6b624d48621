import { describe, expect, it } from 'vitest';
import { followUpBatches, followUpBatchKey } from './webhook-claim-plans.ts';

const row = (id: string) => ({ id, event_id: `event-of-${id}` });

describe('followUpBatches', () => {
  it('sends each place of the runs as one batch, in place order, one row per lane in each', () => {
    const runs = [[row('a2'), row('a3'), row('a4')], [row('b2'), row('b3')], [row('c2')]];
    expect(followUpBatches(runs).map((post) => post.rows.map((r) => r.id))).toEqual([['a2', 'b2', 'c2'], ['a3', 'b3'], ['a4']]);
  });

  it('keys a batch by its rows, whatever their order, and a place only one lane reaches by its event', () => {
    const [second, third, fourth] = followUpBatches([[row('a2'), row('a3'), row('a4')], [row('b2'), row('b3')], [row('c2')]]);
    expect(second!.key).toBe(followUpBatchKey(['c2', 'b2', 'a2']));
    expect(third!.key).toBe(followUpBatchKey(['a3', 'b3']));
    expect(fourth!.key).toBe('event-of-a4');
  });

  it('gives other rows another key, and a key that is a UUID v4 (as the interface has `meta.idempotency_key`)', () => {
    const keys = [['a', 'b'], ['a', 'c'], ['a', 'b', 'c'], ['ab'], ['a,b']].map(followUpBatchKey);
    expect(new Set(keys).size).toBe(keys.length);
    for (const key of keys) expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('has nothing to send behind lanes without runs', () => {
    expect(followUpBatches([[], []])).toEqual([]);
  });
});
