import { describe, expect, it } from 'vitest';
import { groupCommit } from './group-commit.ts';

describe('group commit of settlements', () => {
  it('flushes what arrived together in one go, and what arrives during a flush in the next', async () => {
    const flushes: number[][] = [];
    let release: () => void = () => {};
    const committer = groupCommit<number>(async (items) => {
      flushes.push(items);
      if (flushes.length === 1) await new Promise<void>((resolve) => (release = resolve));
    });
    const first = [1, 2, 3].map((n) => committer.add(n));
    await new Promise((resolve) => setImmediate(resolve));
    const second = [4, 5].map((n) => committer.add(n));
    release();
    await Promise.all([...first, ...second]);
    expect(flushes).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it('retries a failed group item by item, so only the bad item fails', async () => {
    const committed: number[] = [];
    const committer = groupCommit<number>(async (items) => {
      if (items.includes(2)) throw new Error('cannot commit 2');
      committed.push(...items);
    });
    const results = await Promise.allSettled([1, 2, 3].map((n) => committer.add(n)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(committed.sort()).toEqual([1, 3]);
  });

  it('never puts more than the group limit into one flush', async () => {
    const sizes: number[] = [];
    const committer = groupCommit<number>(async (items) => void sizes.push(items.length), 2);
    await Promise.all([1, 2, 3, 4, 5].map((n) => committer.add(n)));
    expect(sizes).toEqual([2, 2, 1]);
  });
});
