import { describe, expect, it } from 'vitest';
import { coalesce } from './coalesced-reads.ts';

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('coalesced lookups', () => {
  it('answers the calls of one event-loop turn with one lookup of all their keys, each with its own value', async () => {
    const lookups: string[][] = [];
    const get = coalesce(async (keys: readonly string[]) => {
      lookups.push([...keys]);
      return keys.map((k) => (k === 'missing' ? undefined : k.toUpperCase()));
    });
    // Calls made from separate callbacks of one turn, as requests parsed from different sockets are.
    const calls = await Promise.all(['a', 'b', 'missing'].map((k) => new Promise((resolve) => setImmediate(() => resolve(get(k))))));
    expect(calls).toEqual(['A', 'B', undefined]);
    expect(lookups).toEqual([['a', 'b', 'missing']]);
  });

  it('remembers nothing: a later call looks again, so it sees what was written in between', async () => {
    let stored = 'old';
    const get = coalesce(async (keys: readonly string[]) => keys.map(() => stored));
    expect(await get('k')).toBe('old');
    stored = 'new';
    await turn();
    expect(await get('k')).toBe('new');
  });

  it('fails every call of a lookup that fails', async () => {
    const get = coalesce(async (): Promise<string[]> => Promise.reject(new Error('connection lost')));
    const results = await Promise.allSettled([get('a'), get('b')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });
});
