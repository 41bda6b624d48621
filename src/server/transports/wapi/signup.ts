import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { GRAPH_API_VERSION } from '../meta/graph-api.ts';

/**
 * The address a wapi channel's owner follows to connect a number: Meta's login dialog, opening the app's Embedded
 * Signup configuration (Facebook Login for Business), which sends the owner back to the gateway with a code.
 * Documented (Meta's "Manually Build a Login Flow" and Embedded Signup's configuration): `client_id`, `config_id`,
 * `response_type=code`, `override_default_response_type=true` (a code, not a token, even where the configuration
 * says otherwise), `redirect_uri` (which must be listed among the app's valid OAuth redirect URIs, and is given again
 * when the code is exchanged), and `state`, given back as it was. Inferred: that the dialog at the versioned address
 * opens Embedded Signup for a `config_id` of it, as Meta's JavaScript SDK does with `FB.login`.
 */

/** Meta's login dialog. */
export const LOGIN_DIALOG = `https://www.facebook.com/${GRAPH_API_VERSION}/dialog/oauth`;

/** How long a channel's address lets its owner come back: long enough to create a business and verify a number. */
export const STATE_LIFETIME_MS = 2 * 60 * 60_000;

/** Where Meta sends the owner back to (the same for every channel: the state names the channel). */
export const returnAddress = (publicUrl: string): string => `${publicUrl}/hooks/wapi/authorized`;

const mac = (key: Buffer, body: string) => createHmac('sha256', key).update(body).digest();

/**
 * A state for the channel: the channel's id, when it stops being taken (Unix seconds), and a nonce (a reinit gives
 * the channel another address, and the one before is no longer its own), signed with the state's key.
 */
export function newState(key: Buffer, channelId: string, now: Date): string {
  return signed(key, `${channelId}.${Math.floor((now.getTime() + STATE_LIFETIME_MS) / 1000)}.${randomBytes(12).toString('base64url')}`);
}

/** How long the page of numbers to choose from is taken: long enough to choose, short for a link that holds a grant. */
export const CHOICE_LIFETIME_MS = 30 * 60_000;

/**
 * A state for one number of the page of numbers to choose from: the channel's id, when it stops being taken, the
 * nonce of the channel's address at the time (an address given since, by a reinit or another signup, makes it stale),
 * and the number's id, signed with the state's key.
 */
export function choiceState(key: Buffer, channelId: string, nonce: string, phoneNumberId: string, now: Date): string {
  return signed(key, `${channelId}.${Math.floor((now.getTime() + CHOICE_LIFETIME_MS) / 1000)}.${nonce}.${phoneNumberId}`);
}

const signed = (key: Buffer, body: string) => `${body}.${mac(key, body).toString('base64url')}`;

export type StateCheck = { ok: true; channelId: string; nonce: string; chosen: string | null } | { ok: false; why: 'forged' | 'expired' };

/**
 * Whether a state is one the gateway signed (in constant time), and is still taken at `now`: the channel it names,
 * the nonce it carries, and the number chosen (a choice page's state) or null (the login dialog's).
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

/** The address of Meta's login dialog for the channel, carrying its state. */
export function signupUrl(options: { appId: string; signupConfigId: string; publicUrl: string; state: string }): string {
  const query = new URLSearchParams({
    client_id: options.appId,
    config_id: options.signupConfigId,
    response_type: 'code',
    override_default_response_type: 'true',
    redirect_uri: returnAddress(options.publicUrl),
    state: options.state,
  });
  return `${LOGIN_DIALOG}?${query.toString()}`;
}

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

/** The gateway's address for choosing a number: back to the return, with the choice's state. */
export const choiceUrl = (publicUrl: string, state: string): string => `${returnAddress(publicUrl)}?${new URLSearchParams({ state }).toString()}`;
