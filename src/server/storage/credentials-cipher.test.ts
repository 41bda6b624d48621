import { describe, expect, it } from 'vitest';
import { credentialsCipher } from './credentials-cipher.ts';

describe('credentials cipher', () => {
  const cipher = credentialsCipher('k'.repeat(43));

  it('round-trips credentials without leaving them readable', () => {
    const sealed = cipher.seal({ telegram_token: '123456:secret-token-value' });
    expect(sealed).not.toContain('secret-token-value');
    expect(cipher.open(sealed)).toEqual({ telegram_token: '123456:secret-token-value' });
  });

  it('seals the same credentials differently each time', () => {
    expect(cipher.seal({ a: 1 })).not.toBe(cipher.seal({ a: 1 }));
  });

  it('refuses a tampered value and another key', () => {
    const sealed = cipher.seal({ code: 'x' });
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3]!, 'base64url');
    body[0] = body[0]! ^ 1;
    expect(() => cipher.open([...parts.slice(0, 3), body.toString('base64url')].join('.'))).toThrow();
    expect(() => credentialsCipher('other'.repeat(10)).open(sealed)).toThrow();
  });
});
