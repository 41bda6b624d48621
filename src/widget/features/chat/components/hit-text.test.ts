import { describe, expect, it } from 'vitest';
import { hitParts } from './hit-text.ts';

const marked = (text: string, terms: string[]) => hitParts(text, terms).map((p) => (p.match ? `[${p.text}]` : p.text)).join('');

describe('a hit of the search across chats', () => {
  it('marks each word where it starts a word, in any case, Russian as English', () => {
    expect(marked('Привет, как дела? ПРИВЕТСТВУЮ', ['привет'])).toBe('[Привет], как дела? [ПРИВЕТ]СТВУЮ');
    expect(marked('The parcel number is AB-7731', ['ab', '77', 'parc'])).toBe('The [parc]el number is [AB]-[77]31');
    expect(marked('unparcel', ['parcel'])).toBe('unparcel');
    expect(marked('par parcel', ['par', 'parcel'])).toBe('[par] [parcel]');
  });

  it('brings a match far into a long text forward, after an ellipsis', () => {
    const text = `${'lorem ipsum '.repeat(20)}the voucher code is 42`;
    const parts = hitParts(text, ['voucher']);
    expect(parts[0]).toEqual({ text: '…', match: false });
    const shown = parts.map((p) => p.text).join('');
    expect(shown.indexOf('voucher')).toBe(21);
    expect(shown).toMatch(/^…/);
    expect(parts.filter((p) => p.match).map((p) => p.text)).toEqual(['voucher']);
  });

  it('shows a text without a match whole', () => {
    expect(hitParts('nothing', ['x'])).toEqual([{ text: 'nothing', match: false }]);
    expect(hitParts('nothing', [])).toEqual([{ text: 'nothing', match: false }]);
  });
});
