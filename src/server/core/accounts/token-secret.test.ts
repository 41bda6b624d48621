import { describe, expect, it } from 'vitest';
import { hashSecret, mintToken, parseToken, secretMatches } from './token-secret.ts';

describe('API token secrets', () => {
  it('mints a token whose id and secret parse back, and whose stored hash is not the secret', () => {
    const minted = mintToken();
    const parsed = parseToken(minted.token);
    expect(parsed?.id).toBe(minted.id);
    expect(minted.secretHash).not.toContain(parsed!.secret);
    expect(secretMatches(parsed!.secret, minted.secretHash)).toBe(true);
  });

  it('mints different tokens every time', () => {
    const tokens = new Set(Array.from({ length: 50 }, () => mintToken().token));
    expect(tokens.size).toBe(50);
  });

  it('rejects a secret that differs in one character', () => {
    const minted = mintToken();
    const { secret } = parseToken(minted.token)!;
    const flipped = secret.slice(0, -1) + (secret.endsWith('A') ? 'B' : 'A');
    expect(secretMatches(flipped, minted.secretHash)).toBe(false);
  });

  it.each(['', 'mgw_', 'Bearer x', `mgw_${'g'.repeat(32)}_${'A'.repeat(43)}`, `mgw_${'a'.repeat(32)}-${'A'.repeat(43)}`, `mgw_${'a'.repeat(32)}_${'A'.repeat(42)}`])(
    'refuses the malformed token %j',
    (token) => {
      expect(parseToken(token)).toBeNull();
    },
  );

  it('compares against a stored hash of another length without throwing', () => {
    expect(secretMatches('anything', 'abcd')).toBe(false);
    expect(hashSecret('x')).toHaveLength(64);
  });
});
