import { describe, expect, it } from 'vitest';
import { codePoints, isUrlOf, utf8Bytes } from './keyboard-limits.ts';

/** The browser's counts must be the server's: Node's own UTF-8 count is the reference. */
describe('keyboard counting', () => {
  const samples = ['', 'Pay', 'Оплатить', '👍🏽 ok', 'e\u0301', '\ud83d', 'a\udc00b', '中文'];

  it('counts UTF-8 bytes as Node does, lone surrogates included', () => {
    for (const s of samples) expect(utf8Bytes(s), JSON.stringify(s)).toBe(Buffer.byteLength(s, 'utf8'));
    expect(utf8Bytes('я'.repeat(33))).toBe(66);
  });

  it('counts characters as code points, not UTF-16 units', () => {
    expect(codePoints('👍')).toBe(1);
    expect('👍'.length).toBe(2);
    expect(codePoints('Оплатить')).toBe(8);
  });

  it('takes a URL only of the protocols given', () => {
    expect(isUrlOf('https://a.example/x', ['http:', 'https:'])).toBe(true);
    expect(isUrlOf('javascript:alert(1)', ['http:', 'https:'])).toBe(false);
    expect(isUrlOf('not a url', ['http:', 'https:'])).toBe(false);
  });
});
