import { describe, expect, it } from 'vitest';
import { markMayHoldNul, mayHoldNul, needsNulWalk, nulPointer, replacingNul } from './nul-characters.ts';

describe('NUL characters', () => {
  it('points at the first string or key holding one, through objects and arrays', () => {
    expect(nulPointer({ a: 'ok', b: [1, 'x', { c: 'y\u0000' }] })).toBe('/b/2/c');
    expect(nulPointer({ ['k\u0000']: 1 })).toBe('/k\uFFFD');
    expect(nulPointer('\u0000')).toBe('');
    expect(nulPointer({ a: 'ok', b: [null, 2, true] })).toBeNull();
  });

  it('finds one in a deeply nested body without running out of stack', () => {
    const depth = 200_000;
    const nested = JSON.parse(`${'['.repeat(depth)}"a\\u0000b"${']'.repeat(depth)}`) as unknown;
    expect(nulPointer(nested)).toBe('/0'.repeat(depth));
  });

  it('rewrites each NUL that JSON text encodes as U+FFFD, and leaves an escaped backslash followed by u0000 alone', () => {
    const text = JSON.stringify({ text: 'a\u0000b', ['k\u0000']: ['\u0000'], literal: '\\u0000', both: '\\\u0000' });
    const parsed = JSON.parse(replacingNul(text)) as Record<string, unknown>;
    expect(parsed).toEqual({ text: 'a\uFFFDb', ['k\uFFFD']: ['\uFFFD'], literal: '\\u0000', both: '\\\uFFFD' });
    expect(nulPointer(parsed)).toBeNull();
    const clean = '{"a":"b"}';
    expect(replacingNul(clean)).toBe(clean);
  });

  it('walks a parsed body only when its text may hold one', () => {
    expect(mayHoldNul('{"a":"\\u0000"}')).toBe(true);
    expect(mayHoldNul('{"a":"\\u0001"}')).toBe(false);
    const body = { a: 'b' };
    expect(needsNulWalk(body)).toBe(false);
    markMayHoldNul(body);
    expect(needsNulWalk(body)).toBe(true);
    expect(needsNulWalk('a string body')).toBe(true);
  });
});
