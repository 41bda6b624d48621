import { describe, expect, it } from 'vitest';
import { mayHoldUnstorable, replacingUnstorable, unstorableBodyRefusal, unstorablePlace, unstorablePointer } from './unstorable-text.ts';

describe('text the database cannot store', () => {
  it('points at the first string or key holding a NUL, through objects and arrays', () => {
    expect(unstorablePointer({ a: 'ok', b: [1, 'x', { c: 'y\u0000' }] })).toBe('/b/2/c');
    expect(unstorablePointer({ ['k\u0000']: 1 })).toBe('/k\uFFFD');
    expect(unstorablePointer('\u0000')).toBe('');
    expect(unstorablePointer({ a: 'ok', b: [null, 2, true] })).toBeNull();
  });

  it('points at an unpaired surrogate, high or low, and lets a pair (an emoji) through', () => {
    expect(unstorablePlace({ text: 'a\uD800b' })).toEqual({ pointer: '/text', message: 'must not contain an unpaired UTF-16 surrogate' });
    expect(unstorablePointer({ a: ['ok', 'end\uD83D'] })).toBe('/a/1');
    expect(unstorablePointer({ a: '\uDE00start' })).toBe('/a');
    expect(unstorablePointer({ ['k\uDC00']: 1 })).toBe('/k\uFFFD');
    expect(unstorablePointer({ a: 'smile \uD83D\uDE00' })).toBeNull();
  });

  it('finds one in a deeply nested body without running out of stack', () => {
    const depth = 200_000;
    const nested = JSON.parse(`${'['.repeat(depth)}"a\\u0000b"${']'.repeat(depth)}`) as unknown;
    expect(unstorablePointer(nested)).toBe('/0'.repeat(depth));
  });

  it('rewrites each NUL and lone surrogate that JSON text encodes as U+FFFD, and leaves escaped backslashes and pairs alone', () => {
    const text = JSON.stringify({ text: 'a\u0000b', ['k\u0000']: ['\u0000'], literal: '\\u0000', both: '\\\u0000' });
    const parsed = JSON.parse(replacingUnstorable(text)) as Record<string, unknown>;
    expect(parsed).toEqual({ text: 'a\uFFFDb', ['k\uFFFD']: ['\uFFFD'], literal: '\\u0000', both: '\\\uFFFD' });
    expect(unstorablePointer(parsed)).toBeNull();
    const surrogates = '{"high":"a\\ud800b","low":"\\uDC00","pair":"\\ud83d\\ude00","escaped":"\\\\ud800","two":"\\ud800\\ud800"}';
    expect(JSON.parse(replacingUnstorable(surrogates))).toEqual({ high: 'a\uFFFDb', low: '\uFFFD', pair: '\uD83D\uDE00', escaped: '\\ud800', two: '\uFFFD\uFFFD' });
    const clean = '{"a":"b"}';
    expect(replacingUnstorable(clean)).toBe(clean);
  });

  it('tells when JSON text may hold one, and refuses a parsed body holding one as a schema failure of its field', () => {
    expect(mayHoldUnstorable('{"a":"\\u0000"}')).toBe(true);
    expect(mayHoldUnstorable('{"a":"\\uD800"}')).toBe(true);
    expect(mayHoldUnstorable('{"a":"\\u0001"}')).toBe(false);
    expect(unstorableBodyRefusal({ a: 'b' })).toBeNull();
    expect(unstorableBodyRefusal([{ name: 'a\u0000' }])).toMatchObject({
      statusCode: 400,
      validationContext: 'body',
      validation: [{ instancePath: '/0/name', keyword: 'unstorable', message: 'must not contain the NUL character (U+0000)' }],
    });
  });
});
