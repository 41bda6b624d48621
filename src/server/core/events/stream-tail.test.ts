import { describe, expect, it } from 'vitest';
import { streamTail } from './stream-tail.ts';

const at = (...positions: number[]) => positions.map((position) => ({ position }));

describe('the stream tail', () => {
  it('reads on from where it started, and hands nothing at or below it', () => {
    const tail = streamTail(10, { lateCommitMs: 1_000 });
    expect(tail.next()).toEqual({ after: 10, holes: [] });
    expect(tail.fresh(at(9, 10, 11, 12))).toEqual(at(11, 12));
    tail.advance(at(11, 12), 0);
    expect(tail.next()).toEqual({ after: 12, holes: [] });
    expect(tail.fresh(at(12))).toEqual([]);
    expect(tail.passed(12)).toBe(true);
    expect(tail.passed(13)).toBe(false);
  });

  it('asks again for a position it read past (a commit still on its way), and hands it once when it comes', () => {
    const tail = streamTail(0, { lateCommitMs: 1_000 });
    tail.advance(at(1, 4), 0);
    expect(tail.next()).toEqual({ after: 4, holes: [2, 3] });
    expect(tail.passed(1)).toBe(true);
    expect(tail.passed(3)).toBe(false);

    // The late commit of 3 arrives with the next new event.
    const read = at(3, 5);
    expect(tail.fresh(read)).toEqual(at(3, 5));
    tail.advance(read, 500);
    expect(tail.next()).toEqual({ after: 5, holes: [2] });
    expect(tail.passed(3)).toBe(true);
    // Read again (the same rows came back): nothing is fresh any more.
    expect(tail.fresh(at(3, 5))).toEqual([]);
  });

  it('gives a hole up after the late-commit window, counted from when it was first seen', () => {
    const tail = streamTail(0, { lateCommitMs: 1_000 });
    tail.advance(at(2), 0);
    tail.advance(at(5), 600);
    expect(tail.next().holes).toEqual([1, 3, 4]);
    tail.expire(999);
    expect(tail.next().holes).toEqual([1, 3, 4]);
    tail.expire(1_000);
    expect(tail.next().holes).toEqual([3, 4]);
    expect(tail.passed(1)).toBe(true);
    // A given-up position that commits after all is not handed: the window is the promise.
    expect(tail.fresh(at(1))).toEqual([]);
    tail.expire(1_600);
    expect(tail.next().holes).toEqual([]);
  });

  it('keeps at most maxHoles holes, the newest, however wide a gap is', () => {
    const tail = streamTail(0, { lateCommitMs: 1_000, maxHoles: 3 });
    tail.advance(at(100), 0);
    expect(tail.next()).toEqual({ after: 100, holes: [97, 98, 99] });
    tail.advance(at(102), 1);
    expect(tail.next().holes).toEqual([98, 99, 101]);
  });

  it('takes a read in any row order', () => {
    const tail = streamTail(0, { lateCommitMs: 1_000 });
    tail.advance(at(3, 1), 0);
    expect(tail.next()).toEqual({ after: 3, holes: [2] });
  });
});
