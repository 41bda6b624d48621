import { describe, expect, it } from 'vitest';
import { resolvedAddresses } from './resolved-addresses.ts';

describe('resolved addresses', () => {
  const key = { channelId: 'c1', fileId: 'f1', bot: 'bot-1' };
  /** A platform whose lookups are counted, and whose file server serves only the addresses in `serving`. */
  function platform() {
    const state = { asked: 0, serving: new Set<string>() };
    const resolve = async () => {
      const address = `https://files.example/${++state.asked}`;
      state.serving.add(address);
      return address;
    };
    const open = async (address: string) => (state.serving.has(address) ? `file at ${address}` : null);
    return { state, resolve, open };
  }

  it('looks the file up once while its address is kept, and again after it lapses or stops serving', async () => {
    let now = 1_000_000;
    const addresses = resolvedAddresses({ ttlMs: 60_000, clock: { now: () => now } });
    const { state, resolve, open } = platform();
    expect(await addresses.open(key, resolve, open)).toBe('file at https://files.example/1');
    now += 59_000;
    expect(await addresses.open(key, resolve, open)).toBe('file at https://files.example/1');
    expect(state.asked).toBe(1);
    now += 2_000;
    expect(await addresses.open(key, resolve, open)).toBe('file at https://files.example/2');
    // The kept address expires at the platform: looked up once more, and opened there.
    state.serving.clear();
    expect(await addresses.open(key, resolve, open)).toBe('file at https://files.example/3');
    expect(state.asked).toBe(3);
    // A kept address whose server fails outright is dropped the same way.
    const failing = async (address: string) => (address.endsWith('/3') ? Promise.reject(new Error('503')) : open(address));
    expect(await addresses.open(key, resolve, failing)).toBe('file at https://files.example/4');
  });

  it('keeps apart other files, other channels and another bot in the same channel, and keeps neither a miss nor an address that did not serve', async () => {
    const addresses = resolvedAddresses({ ttlMs: 60_000 });
    const { state, resolve, open } = platform();
    await addresses.open(key, resolve, open);
    for (const other of [{ ...key, fileId: 'f2' }, { ...key, channelId: 'c2' }, { ...key, bot: 'bot-2' }]) {
      expect(await addresses.open(other, async () => null, open)).toBeNull();
    }
    expect(await addresses.open({ ...key, fileId: 'f2' }, resolve, open)).toBe('file at https://files.example/2');
    // Gone at the platform: nothing kept, so the next open looks it up again.
    const gone = async () => null;
    expect(await addresses.open({ ...key, fileId: 'f3' }, resolve, gone)).toBeNull();
    expect(await addresses.open({ ...key, fileId: 'f3' }, resolve, open)).toBe('file at https://files.example/4');
    expect(state.asked).toBe(4);
  });
});
