import { describe, expect, it } from 'vitest';
import { partWithin } from './file-server.ts';

describe('the bytes a range names in a file', () => {
  it('stop at the file’s end, and a suffix longer than the file is all of it', () => {
    expect(partWithin({ first: 0, last: 99 }, 1000)).toEqual({ first: 0, last: 99 });
    expect(partWithin({ first: 900, last: 5000 }, 1000)).toEqual({ first: 900, last: 999 });
    expect(partWithin({ first: 100, last: null }, 1000)).toEqual({ first: 100, last: 999 });
    expect(partWithin({ suffix: 100 }, 1000)).toEqual({ first: 900, last: 999 });
    expect(partWithin({ suffix: 5000 }, 1000)).toEqual({ first: 0, last: 999 });
    expect(partWithin({ first: 999, last: null }, 1000)).toEqual({ first: 999, last: 999 });
  });

  it('are none for a range from past the end, an empty suffix, or any range of an empty file', () => {
    expect(partWithin({ first: 1000, last: null }, 1000)).toBeNull();
    expect(partWithin({ first: 1000, last: 2000 }, 1000)).toBeNull();
    expect(partWithin({ suffix: 0 }, 1000)).toBeNull();
    expect(partWithin({ suffix: 10 }, 0)).toBeNull();
    expect(partWithin({ first: 0, last: null }, 0)).toBeNull();
  });
});
