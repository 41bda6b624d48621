import { describe, expect, it } from 'vitest';
import { searchTerms } from '../../../contract/bff-message-search.ts';
import { prefixQuery } from './message-search.ts';

describe('the words of a search across chats', () => {
  it('keeps letters and digits, lower-cased, each once, at most eight', () => {
    expect(searchTerms('Привет, AB-7731!')).toEqual(['привет', 'ab', '7731']);
    expect(searchTerms("it's 'x':* & !y | (z) <-> \\w")).toEqual(['it', 's', 'x', 'y', 'z', 'w']);
    expect(searchTerms('a A a')).toEqual(['a']);
    expect(searchTerms('1 2 3 4 5 6 7 8 9 10')).toHaveLength(8);
    expect(searchTerms(' ?! ')).toEqual([]);
  });

  it('makes a tsquery of prefixes, all required, and refuses anything but words', () => {
    expect(prefixQuery(['привет', 'ab'])).toBe("'привет':* & 'ab':*");
    expect(() => prefixQuery([])).toThrow();
    expect(() => prefixQuery(["x':* | 'y"])).toThrow();
  });
});
