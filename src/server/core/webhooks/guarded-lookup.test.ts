import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { guardedLookup, refusedLiteralHost } from './guarded-lookup.ts';

class Refused extends Error {}

/** Runs the lookup as a socket's connect would, and says what it answered. */
function run(addresses: { address: string; family: number }[], options: { family?: number; all?: boolean }, allowLoopback = false) {
  const lookup = guardedLookup(async () => addresses, { allowLoopback }, (message) => new Refused(message));
  return new Promise<{ err: Error | null; address: string | LookupAddress[]; family?: number }>((resolve) =>
    lookup('hooks.example.com', options, (err, address, family) => resolve({ err, address, family })),
  );
}

describe('guardedLookup', () => {
  it('answers the first address of the asked family, or all of them when asked', async () => {
    const both = [
      { address: '2606:4700::1', family: 6 },
      { address: '93.184.216.34', family: 4 },
    ];
    expect(await run(both, { family: 4 })).toEqual({ err: null, address: '93.184.216.34', family: 4 });
    expect(await run(both, {})).toEqual({ err: null, address: '2606:4700::1', family: 6 });
    expect((await run(both, { all: true })).address).toEqual(both);
  });

  it('refuses the name when any address of the family is private, not only the first', async () => {
    const { err } = await run([{ address: '93.184.216.34', family: 4 }, { address: '10.0.0.7', family: 4 }], { family: 4 });
    expect(err).toBeInstanceOf(Refused);
    expect(err?.message).toContain('10.0.0.7');
  });

  it('lets loopback through only where the policy allows it', async () => {
    expect((await run([{ address: '127.0.0.1', family: 4 }], {})).err).toBeInstanceOf(Refused);
    expect((await run([{ address: '127.0.0.1', family: 4 }], {}, true)).err).toBeNull();
  });

  it('says a name without an address of the asked family does not resolve (a failure, not a refusal)', async () => {
    const { err } = await run([{ address: '2606:4700::1', family: 6 }], { family: 4 });
    expect(err).not.toBeInstanceOf(Refused);
    expect((err as NodeJS.ErrnoException).code).toBe('ENOTFOUND');
  });
});

describe('refusedLiteralHost', () => {
  it('checks a URL whose host is an address, and leaves names to their lookup', () => {
    expect(refusedLiteralHost(new URL('https://[::1]/x'), { allowLoopback: false })).toMatch(/^::1: /);
    expect(refusedLiteralHost(new URL('https://192.168.1.2/x'), { allowLoopback: true })).toMatch(/^192\.168\.1\.2: /);
    expect(refusedLiteralHost(new URL('http://127.0.0.1:9/x'), { allowLoopback: true })).toBeNull();
    expect(refusedLiteralHost(new URL('https://10.example.com/x'), { allowLoopback: false })).toBeNull();
  });
});
