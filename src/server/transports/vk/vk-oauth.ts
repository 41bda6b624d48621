import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { VK_API_VERSION, type VkApplication } from './vk-api.ts';

/**
 * VK's OAuth pages for connecting a community (dev.vk.com, "Authorization Code Flow" for a user's and for a
 * community's key): `<VK_OAUTH_URL>/authorize` with `client_id`, `redirect_uri`, `response_type=code`, `scope`, `v`
 * and `state` (given back as it was); for a community's key, `group_ids` too. VK sends the owner back to the
 * `redirect_uri` with `code` and `state`, or `error` (`access_denied`) and `error_description` when declined. A
 * community's key is given only for the communities named, so the owner first authorizes as themselves (scope
 * `groups`, to list the communities they administer) and then for the community they choose.
 */

/** How long a community's address (a link of the page of communities) is taken: long enough to read VK's page. */
export const STATE_LIFETIME_MS = 60 * 60_000;

/**
 * How long the first step's address is taken: it is the channel's `url`, which the CRM shows its owner as long as the
 * channel waits, and which nothing renews while unused, so an hour would leave the owner at an expired link until a
 * reinit. Its nonce already makes it single-use (taken, it is replaced), so it lives for weeks; past that, a reinit
 * gives a new one.
 */
export const FIRST_STEP_LIFETIME_MS = 30 * 24 * 60 * 60_000;

/** The community key's rights: messages, the community's settings (its callback server), photos and documents. */
export const COMMUNITY_SCOPE = 'messages,manage,photos,docs';

/** Where VK sends the owner back to, for both steps (the state names the channel and the step). */
export const returnAddress = (publicUrl: string): string => `${publicUrl}/hooks/vk/authorized`;

/** The step a state is for: the owner's own authorization (`user`), or a community's (`group`, with its id). */
export type Step = { kind: 'user' } | { kind: 'group'; groupId: string };

const mac = (key: Buffer, body: string) => createHmac('sha256', key).update(body).digest();

/** A fresh nonce: a step's address is the channel's current one while its nonce is. */
export const newNonce = (): string => randomBytes(12).toString('base64url');

/**
 * A state: the channel, the step (`u`, or `g<group id>`), when it stops being taken (Unix seconds), and the nonce of
 * the channel's current address, signed with the state's key.
 */
export function signState(key: Buffer, channelId: string, step: Step, nonce: string, now: Date): string {
  const lifetime = step.kind === 'user' ? FIRST_STEP_LIFETIME_MS : STATE_LIFETIME_MS;
  const body = `${channelId}.${step.kind === 'user' ? 'u' : `g${step.groupId}`}.${Math.floor((now.getTime() + lifetime) / 1000)}.${nonce}`;
  return `${body}.${mac(key, body).toString('base64url')}`;
}

export type StateCheck = { ok: true; channelId: string; step: Step; nonce: string } | { ok: false; why: 'forged' | 'expired' };

/** Whether a state is one the gateway signed (compared in constant time) and is still taken at `now`. */
export function checkState(key: Buffer, state: unknown, now: Date): StateCheck {
  if (typeof state !== 'string' || state.length > 300) return { ok: false, why: 'forged' };
  const parts = state.split('.');
  if (parts.length !== 5) return { ok: false, why: 'forged' };
  const [channelId, step, expires, nonce, signature] = parts as [string, string, string, string, string];
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(key, `${channelId}.${step}.${expires}.${nonce}`);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, why: 'forged' };
  if (!/^\d{1,12}$/.test(expires) || Number(expires) * 1000 <= now.getTime()) return { ok: false, why: 'expired' };
  const parsed: Step | null = step === 'u' ? { kind: 'user' } : /^g\d{1,20}$/.test(step) ? { kind: 'group', groupId: step.slice(1) } : null;
  if (!parsed) return { ok: false, why: 'forged' };
  return { ok: true, channelId, step: parsed, nonce };
}

/** The nonce of the state an address carries (the channel's current address), or null. */
export function nonceOf(url: string | null): string | null {
  if (url === null) return null;
  try {
    return new URL(url).searchParams.get('state')?.split('.')[3] ?? null;
  } catch {
    return null;
  }
}

/** VK's OAuth page for a step: the owner's (scope `groups`), or the community's key (`group_ids`, COMMUNITY_SCOPE). */
export function authorizeUrl(app: VkApplication, publicUrl: string, step: Step, state: string): string {
  const query = new URLSearchParams({
    client_id: app.appId,
    redirect_uri: returnAddress(publicUrl),
    response_type: 'code',
    display: 'page',
    v: VK_API_VERSION,
    ...(step.kind === 'user' ? { scope: 'groups' } : { group_ids: step.groupId, scope: COMMUNITY_SCOPE }),
    state,
  });
  return `${app.oauthUrl.replace(/\/+$/, '')}/authorize?${query.toString()}`;
}

/** The community's key in the answer to its code's exchange: `access_token_<group id>`, or `groups[]` as newer answers give it. */
export function communityKeyOf(answer: Record<string, unknown>, groupId: string): string | null {
  const direct = answer[`access_token_${groupId}`];
  if (typeof direct === 'string') return direct;
  for (const group of Array.isArray(answer.groups) ? answer.groups : []) {
    if (typeof group === 'object' && group !== null && String((group as { group_id?: unknown }).group_id) === groupId) {
      const token = (group as { access_token?: unknown }).access_token;
      if (typeof token === 'string') return token;
    }
  }
  return null;
}
