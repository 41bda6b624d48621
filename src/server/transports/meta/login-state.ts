import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The `state` a channel's address of Meta's login dialog carries, and the states of the gateway's own page of choices
 * on the way back (WhatsApp's numbers, Instagram's accounts): signed with a key of the transport's, expiring, naming
 * the channel, with a nonce that changes with every address the channel is given (a reinit, another login), so that
 * an address given before is no longer the channel's.
 */

/** How long a channel's address lets its owner come back: long enough to create a business and verify a number. */
export const STATE_LIFETIME_MS = 2 * 60 * 60_000;

/** How long a page of choices is taken: long enough to choose, short for a link that holds a grant. */
export const CHOICE_LIFETIME_MS = 30 * 60_000;

const mac = (key: Buffer, body: string) => createHmac('sha256', key).update(body).digest();
const signed = (key: Buffer, body: string) => `${body}.${mac(key, body).toString('base64url')}`;

/** A state for the channel: its id, when it stops being taken (Unix seconds), and a nonce, signed with the key. */
export function newState(key: Buffer, channelId: string, now: Date): string {
  return signed(key, `${channelId}.${Math.floor((now.getTime() + STATE_LIFETIME_MS) / 1000)}.${randomBytes(12).toString('base64url')}`);
}

/**
 * A state for one choice of the page: the channel's id, when it stops being taken, the nonce of the channel's address
 * at the time (an address given since makes it stale), and the id of what is chosen (one of Meta's), signed.
 */
export function choiceState(key: Buffer, channelId: string, nonce: string, chosenId: string, now: Date): string {
  return signed(key, `${channelId}.${Math.floor((now.getTime() + CHOICE_LIFETIME_MS) / 1000)}.${nonce}.${chosenId}`);
}

export type StateCheck = { ok: true; channelId: string; nonce: string; chosen: string | null } | { ok: false; why: 'forged' | 'expired' };

/**
 * Whether a state is one the gateway signed (in constant time), and is still taken at `now`: the channel it names,
 * the nonce it carries, and what was chosen (a choice page's state) or null (the login dialog's).
 */
export function checkState(key: Buffer, state: unknown, now: Date): StateCheck {
  if (typeof state !== 'string' || state.length > 256) return { ok: false, why: 'forged' };
  const parts = state.split('.');
  if (parts.length !== 4 && parts.length !== 5) return { ok: false, why: 'forged' };
  const signature = parts.pop()!;
  const [channelId, expires, nonce, chosen] = parts as [string, string, string, string | undefined];
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(key, parts.join('.'));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, why: 'forged' };
  if (!/^\d{1,12}$/.test(expires) || Number(expires) * 1000 <= now.getTime()) return { ok: false, why: 'expired' };
  if (chosen !== undefined && !/^\d{1,32}$/.test(chosen)) return { ok: false, why: 'forged' };
  return { ok: true, channelId, nonce, chosen: chosen ?? null };
}

/** Whether a state is a choice page's (it names what was chosen), whatever its signature. */
export const isChoiceState = (state: unknown): boolean => typeof state === 'string' && state.split('.').length === 5;

/** The state an address carries (the channel's current one is compared with the state the owner comes back with). */
export function stateOf(url: string | null): string | null {
  if (url === null) return null;
  try {
    return new URL(url).searchParams.get('state');
  } catch {
    return null;
  }
}

/** The nonce of the state an address carries (the channel's current one), or null. */
export const nonceOf = (url: string | null): string | null => stateOf(url)?.split('.')[2] ?? null;
