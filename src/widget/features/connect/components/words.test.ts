import { describe, expect, it } from 'vitest';
import { fieldWords } from '../store/credentials.ts';
import { statusWords } from '../store/words.ts';
import { flowWords } from './flow-words.ts';
import { formWords } from './form-words.ts';
import { listWords } from './list-words.ts';

/** Every text a catalog can say: strings as they are, functions with sample values (a name, a phone). */
function texts(entry: unknown): string[] {
  if (typeof entry === 'string') return [entry];
  if (typeof entry === 'function') return texts((entry as (...args: unknown[]) => unknown)('WhatsApp'));
  if (Array.isArray(entry)) return entry.flatMap(texts);
  if (entry && typeof entry === 'object') return Object.values(entry).flatMap(texts);
  return [];
}

const catalogs = { statusWords, fieldWords, listWords, formWords, flowWords };

describe('the connect screen’s words', () => {
  it('are given in Russian for every entry, in Russian typography', () => {
    for (const [name, words] of Object.entries(catalogs)) {
      const en = texts(words.en);
      const ru = texts(words.ru);
      // Russian may say more (credential hints, which English takes from the contract), never less.
      expect(ru.length, name).toBeGreaterThanOrEqual(en.length);
      for (const text of ru) {
        expect(text.trim(), `${name}: an empty text`).not.toBe('');
        expect(text, `${name}: straight quotes in “${text}”`).not.toMatch(/["“”]/);
        expect(text, `${name}: three dots in “${text}”`).not.toMatch(/\.\.\./);
      }
    }
    for (const lang of ['es', 'pt'] as const) {
      for (const [name, words] of Object.entries(catalogs)) {
        const en = texts(words.en);
        const said = texts(words[lang]);
        expect(said.length, `${lang} ${name}`).toBeGreaterThanOrEqual(en.length);
        for (const text of said) {
          expect(text.trim(), `${lang} ${name}: an empty text`).not.toBe('');
          expect(text, `${lang} ${name}: three dots in “${text}”`).not.toMatch(/\.\.\./);
        }
      }
    }
    // A phone app the transport does not name is still said in the sentence's own words.
    expect(flowWords.ru.qrAlt(undefined)).toBe('QR-код для сканирования в мессенджере');
    expect(flowWords.en.qrAlt(undefined)).toBe('QR code to scan with the messenger');
  });
});
