import { describe, expect, it } from 'vitest';
import { resolvedAddresses } from './resolved-addresses.ts';

describe('resolved addresses', () => {
  const key = { channelId: 'c1', fileId: 'f1', token: 'bot-token-1' };

  it('asks the platform once while the address is kept, and again after it lapses or is forgotten', async () => {
    let now = 1_000_000;
    const addresses = resolvedAddresses({ ttlMs: 60_000, clock: { now: () => now } });
    let asked = 0;
    const resolve = async () => `https://files.example/${++asked}`;
    expect(await addresses.get(key, resolve)).toEqual({ address: 'https://files.example/1', remembered: false });
    now += 59_000;
    expect(await addresses.get(key, resolve)).toEqual({ address: 'https://files.example/1', remembered: true });
    now += 2_000;
    expect(await addresses.get(key, resolve)).toEqual({ address: 'https://files.example/2', remembered: false });
    addresses.forget(key);
    expect(await addresses.get(key, resolve)).toEqual({ address: 'https://files.example/3', remembered: false });
    expect(asked).toBe(3);
  });

  it('keeps apart other files, other channels and another bot in the same channel, and does not keep a miss', async () => {
    const addresses = resolvedAddresses({ ttlMs: 60_000 });
    await addresses.get(key, async () => 'https://files.example/a');
    for (const other of [{ ...key, fileId: 'f2' }, { ...key, channelId: 'c2' }, { ...key, token: 'bot-token-2' }]) {
      expect(await addresses.get(other, async () => null)).toEqual({ address: null, remembered: false });
    }
    expect(await addresses.get({ ...key, fileId: 'f2' }, async () => 'https://files.example/b')).toEqual({ address: 'https://files.example/b', remembered: false });
  });
});
