import { describe, expect, it } from 'vitest';
import { hookFingerprint, type HookRegistrationShape } from './hook-fingerprint.ts';

const shape = (overrides: Partial<HookRegistrationShape> = {}): HookRegistrationShape => ({
  hookUrl: (id) => `https://gw.example.com/hooks/telegram/${id}`,
  updateKinds: ['message', 'edited_message', 'callback_query'],
  hookSecret: (id) => `secret-of-${id}`,
  ...overrides,
});

describe('hook fingerprint', () => {
  it('is the same while the address, the update kinds and the secret stay', () => {
    expect(hookFingerprint(shape())).toBe(hookFingerprint(shape()));
    expect(hookFingerprint(shape())).toMatch(/^v1:[\w-]{43}$/);
  });

  it('changes with the address (PUBLIC_URL), the update kinds, or the secret', () => {
    const before = hookFingerprint(shape());
    expect(hookFingerprint(shape({ hookUrl: (id) => `https://new.example.com/hooks/telegram/${id}` }))).not.toBe(before);
    expect(hookFingerprint(shape({ updateKinds: ['message'] }))).not.toBe(before);
    expect(hookFingerprint(shape({ hookSecret: (id) => `another-secret-of-${id}` }))).not.toBe(before);
  });

  it('gives the secret away neither as it is nor its parts', () => {
    const secret = 'a-very-recognisable-secret';
    const fingerprint = hookFingerprint(shape({ hookSecret: () => secret }));
    expect(fingerprint).not.toContain(secret);
    expect(fingerprint).not.toContain('recognisable');
  });
});
