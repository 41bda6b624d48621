import { describe, expect, it } from 'vitest';
import { checkState, communityKeyOf, FIRST_STEP_LIFETIME_MS, nonceOf, signState, STATE_LIFETIME_MS } from './vk-oauth.ts';
import { randomIdOf } from './vk-messaging.ts';

const KEY = Buffer.alloc(32, 7);
const CHANNEL = '00000000-0000-4000-8000-0000000000a1';

describe('the states of VK’s OAuth pages', () => {
  it('names the channel, the step and the nonce, until it expires; anything changed is forged', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const state = signState(KEY, CHANNEL, { kind: 'group', groupId: '77' }, 'nonce-1', now);
    expect(checkState(KEY, state, now)).toEqual({ ok: true, channelId: CHANNEL, step: { kind: 'group', groupId: '77' }, nonce: 'nonce-1' });
    expect(checkState(KEY, state.replace('.g77.', '.g78.'), now)).toEqual({ ok: false, why: 'forged' });
    expect(checkState(Buffer.alloc(32, 8), state, now)).toEqual({ ok: false, why: 'forged' });
    expect(checkState(KEY, state, new Date(now.getTime() + STATE_LIFETIME_MS + 1000))).toEqual({ ok: false, why: 'expired' });
    expect(checkState(KEY, 42, now)).toEqual({ ok: false, why: 'forged' });
    expect(nonceOf(`https://oauth.vk.com/authorize?state=${encodeURIComponent(state)}`)).toBe('nonce-1');
  });

  it('takes the first step’s state, the channel’s own link, for weeks, and a community’s for an hour', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const later = new Date(now.getTime() + STATE_LIFETIME_MS + 1000);
    expect(checkState(KEY, signState(KEY, CHANNEL, { kind: 'user' }, 'nonce-1', now), later)).toMatchObject({ ok: true, step: { kind: 'user' } });
    expect(checkState(KEY, signState(KEY, CHANNEL, { kind: 'user' }, 'nonce-1', now), new Date(now.getTime() + FIRST_STEP_LIFETIME_MS + 1000))).toEqual({ ok: false, why: 'expired' });
    expect(checkState(KEY, signState(KEY, CHANNEL, { kind: 'group', groupId: '77' }, 'nonce-1', now), later)).toEqual({ ok: false, why: 'expired' });
  });

  it('finds the community’s key in either shape of the code’s exchange', () => {
    expect(communityKeyOf({ access_token_77: 'k1', expires_in: 0 }, '77')).toBe('k1');
    expect(communityKeyOf({ groups: [{ group_id: 77, access_token: 'k2' }] }, '77')).toBe('k2');
    expect(communityKeyOf({ access_token_78: 'k3' }, '77')).toBeNull();
  });

  it('gives a send the same non-zero random_id each time it is tried, and another send another', () => {
    expect(randomIdOf('a')).toBe(randomIdOf('a'));
    expect(randomIdOf('a')).not.toBe(randomIdOf('b'));
    expect(Number.isSafeInteger(randomIdOf('a')) && randomIdOf('a') > 0).toBe(true);
  });

  it('draws random_id from 48 bits, so that different sends of a busy community do not share one', () => {
    const ids = Array.from({ length: 2000 }, (_, i) => randomIdOf(`00000000-0000-4000-8000-${String(i).padStart(12, '0')}`));
    expect(ids.every((n) => Number.isSafeInteger(n) && n > 0 && n < 2 ** 48)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    // Most of them lie beyond 32 bits (an int32 would hold none).
    expect(ids.filter((n) => n >= 2 ** 32).length).toBeGreaterThan(1900);
  });
});
