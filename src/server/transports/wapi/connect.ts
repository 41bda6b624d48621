import { randomInt } from 'node:crypto';
import type { AuthorizationGrant, AuthorizationReturn } from '../../core/channels/authorization-return.ts';
import type { ChannelRecord, ConnectOutcome } from '../../core/channels/ports.ts';
import { AppError } from '../../core/errors.ts';
import type { CallPacer } from '../call-pacer.ts';
import { GraphApiError, GraphApiUnreachable, graphApi } from '../meta/graph-api.ts';
import { isMetaId, numberOf, pacedNumber, type NumberCredentials, type WhatsAppDeps } from './account.ts';
import { isTokenRefused } from './cloud-failures.ts';
import { phoneDigits, tierOf } from './number-profile.ts';
import { accountTemplates } from './templates.ts';
import { syncChannelTemplates } from '../../core/templates/platform-templates.ts';
import { checkState, newState, returnAddress, signupUrl, stateOf } from './signup.ts';

/**
 * Connecting a WhatsApp number through Embedded Signup: the channel's `url` is Meta's login dialog; the owner comes
 * back with a code (`/hooks/wapi/authorized`), which is exchanged for the business's token; the account and the
 * number it granted are found, the app is subscribed to the account's webhooks, the number registered with the Cloud
 * API where it is not yet. Documented (Embedded Signup's "Onboarding business customers as a Tech Provider"):
 * `GET /oauth/access_token` with the app's id and secret and the code; `POST /{waba_id}/subscribed_apps`;
 * `POST /{phone_number_id}/register` with a two-step verification PIN of the business's choosing. Documented
 * (Graph API "debug_token"): the token's `granular_scopes`, `whatsapp_business_management` and
 * `whatsapp_business_messaging`, each with the `target_ids` of the accounts granted. Documented (phone numbers):
 * `GET /{waba_id}/phone_numbers` with `display_phone_number`, `verified_name`, `messaging_limit_tier`,
 * `platform_type` (`CLOUD_API` once registered). Inferred: that a number to register whose PIN was set otherwise is
 * refused with 133005 (Meta's "two step verification PIN mismatch").
 */

type Pacer = CallPacer;

/** The account's number as `GET /{waba_id}/phone_numbers` answers it. */
interface PhoneNumberAnswer {
  id?: unknown;
  display_phone_number?: unknown;
  verified_name?: unknown;
  messaging_limit_tier?: unknown;
  platform_type?: unknown;
}

const PHONE_FIELDS = 'id,display_phone_number,verified_name,messaging_limit_tier,platform_type';

/** What the owner is told when nothing changed, by cause. */
export const refusals = {
  forged: 'This link is not one of this gateway’s: open the channel’s link again',
  expired: 'This link has expired: reconnect the channel (reinit) for a new one',
  declined: 'The authorization was not given: open the channel’s link again to connect the number',
  codeRefused: 'Meta did not accept the authorization (it may have been used already, or be too old): open the channel’s link again',
  noAccount: 'No WhatsApp Business Account was shared with this gateway: open the channel’s link again and share one',
  noMessaging: 'Messaging through this gateway was not allowed for the account: open the channel’s link again and allow it',
  noNumber: 'The WhatsApp Business Account has no phone number to connect that is not connected to another channel already',
  pinSet: 'The number has a two-step verification PIN: turn it off in WhatsApp Manager, then open the channel’s link again',
} as const;

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null;

/** Meta out of reach, or failing: nothing changed, and the owner may come back again (the page says so). */
function unavailable(err: unknown, what: string): AppError {
  if (err instanceof GraphApiUnreachable) return new AppError('SERVICE_UNAVAILABLE', 'Meta could not be reached; try again');
  return new AppError('SERVICE_UNAVAILABLE', `Meta refused ${what}: ${err instanceof Error ? err.message : String(err)}`);
}

/**
 * Creating a wapi channel, or reinit: the channel waits (`init`) at a new address of Meta's login dialog, whose state
 * names the channel and expires; an address given before stops being taken. Nothing is asked of Meta yet.
 */
export function connectWhatsApp(deps: WhatsAppDeps, channelId: string): ConnectOutcome {
  const state = newState(deps.stateKey, channelId, deps.clock.now());
  return { kind: 'redirect', url: signupUrl({ appId: deps.appId, signupConfigId: deps.signupConfigId, publicUrl: deps.publicUrl, state }) };
}

/** The accounts the business token was granted for a scope, as `debug_token` tells. */
function targetsOf(scopes: unknown, scope: string): string[] {
  const rows = Array.isArray(scopes) ? scopes : [];
  return rows.flatMap((row) => (isObject(row) && row.scope === scope && Array.isArray(row.target_ids) ? row.target_ids.filter(isMetaId) : []));
}

/**
 * What Embedded Signup granted, once its code is exchanged: the account, and the number of it no other channel has
 * (the channel's own number before a reinit first; else the first Meta lists, since the signup adds one number).
 */
async function grantOf(deps: WhatsAppDeps, pacer: Pacer, channel: ChannelRecord, code: string): Promise<AuthorizationGrant | { refused: string }> {
  let token: string;
  try {
    const app = graphApi(deps.graphUrl, null, deps.appSecret, deps.timeoutMs);
    const answer = await app.call<{ access_token?: unknown }>('GET', '/oauth/access_token', {
      query: { client_id: deps.appId, client_secret: deps.appSecret, redirect_uri: returnAddress(deps.publicUrl), code },
    });
    if (typeof answer.access_token !== 'string' || !/^[\x21-\x7e]{20,2048}$/.test(answer.access_token)) return { refused: refusals.codeRefused };
    token = answer.access_token;
  } catch (err) {
    if (err instanceof GraphApiError && err.status < 500 && !err.transient) return { refused: refusals.codeRefused };
    throw unavailable(err, 'the code');
  }

  let wabaIds: string[];
  try {
    const appToken = graphApi(deps.graphUrl, `${deps.appId}|${deps.appSecret}`, deps.appSecret, deps.timeoutMs);
    const debug = await appToken.call<{ data?: { granular_scopes?: unknown } }>('GET', '/debug_token', { query: { input_token: token } });
    const scopes = debug.data?.granular_scopes;
    if (!(Array.isArray(scopes) && scopes.some((s) => isObject(s) && s.scope === 'whatsapp_business_messaging'))) return { refused: refusals.noMessaging };
    wabaIds = [...new Set(targetsOf(scopes, 'whatsapp_business_management'))];
  } catch (err) {
    throw unavailable(err, 'GET /debug_token');
  }
  if (wabaIds.length === 0) return { refused: refusals.noAccount };

  const business = graphApi(deps.graphUrl, token, deps.appSecret, deps.timeoutMs);
  let found: { wabaId: string; number: PhoneNumberAnswer } | null = null;
  const previous = channel.messengerId;
  for (const wabaId of wabaIds) {
    let numbers: PhoneNumberAnswer[];
    try {
      const answer = await business.call<{ data?: unknown }>('GET', `/${wabaId}/phone_numbers`, { query: { fields: PHONE_FIELDS } });
      numbers = (Array.isArray(answer.data) ? answer.data : []).filter((n): n is PhoneNumberAnswer => isObject(n) && isMetaId(n.id));
    } catch (err) {
      throw unavailable(err, `GET /${wabaId}/phone_numbers`);
    }
    for (const number of numbers.sort((a, b) => Number(b.id === previous) - Number(a.id === previous))) {
      const holders = (await deps.channels.listByMessengerId('wapi', number.id as string)).filter((c) => c.id !== channel.id);
      if (holders.length === 0) {
        found = { wabaId, number };
        break;
      }
    }
    if (found) break;
  }
  if (!found) return { refused: refusals.noNumber };

  const phoneNumberId = found.number.id as string;
  const kept: NumberCredentials = { business_token: token, waba_id: found.wabaId, phone_number_id: phoneNumberId, pin: null };
  const api = pacedNumber(deps, pacer, kept);
  try {
    await api.call('POST', `/${found.wabaId}/subscribed_apps`);
  } catch (err) {
    throw unavailable(err, `POST /${found.wabaId}/subscribed_apps`);
  }
  if (found.number.platform_type !== 'CLOUD_API') {
    // The business's two-step verification PIN, set by registering: kept, sealed, for registering again later.
    kept.pin = String(randomInt(0, 1_000_000)).padStart(6, '0');
    try {
      await api.call('POST', `/${phoneNumberId}/register`, { body: { messaging_product: 'whatsapp', pin: kept.pin } });
    } catch (err) {
      if (err instanceof GraphApiError && err.code === 133005) return { refused: refusals.pinSet };
      throw unavailable(err, `POST /${phoneNumberId}/register`);
    }
  }
  // Another account in the channel's place (a reinit): the one before stops posting here, unless another channel has it.
  const before = numberOf(deps.cipher, channel.credentials);
  if (before && before.waba_id !== found.wabaId) await letGoOfAccount(deps, pacer, channel.id, channel.credentials).catch(() => {});
  // The account's templates, listed with the channel from the start; should Meta fail to give them now, the hook
  // refresh and Meta's moderation webhooks bring them later.
  await accountTemplates(api, found.wabaId)
    .then(({ listed, complete }) => syncChannelTemplates(deps, channel.id, listed, complete))
    .catch(() => {});
  const phone = phoneDigits(found.number.display_phone_number);
  const name = typeof found.number.verified_name === 'string' && found.number.verified_name ? found.number.verified_name : phone;
  return {
    profile: { messengerId: phoneNumberId, messengerAccountId: found.wabaId, phone, name, username: null },
    tier: tierOf(found.number.messaging_limit_tier),
    credentials: { ...kept },
  };
}

/** The return from Meta's login dialog, for `GET /hooks/wapi/authorized`. */
export function whatsappSignupReturn(deps: WhatsAppDeps, pacer: Pacer, fingerprint: string): AuthorizationReturn {
  return {
    transport: 'wapi',
    channelOf(query) {
      const checked = checkState(deps.stateKey, query.state, deps.clock.now());
      return checked.ok ? { channelId: checked.channelId } : { refused: refusals[checked.why] };
    },
    async grant(channel, query) {
      // The state must be the channel's current one: one given before a reinit, or used already, is not.
      if (stateOf(channel.authUrl) !== query.state) return { refused: refusals.forged };
      const code = query.code;
      if (typeof code !== 'string' || code.length === 0 || code.length > 2048) return { refused: refusals.declined };
      const granted = await grantOf(deps, pacer, channel, code);
      return 'refused' in granted ? granted : { ...granted, hookFingerprint: fingerprint };
    },
  };
}

/**
 * The channel no longer takes its account's updates (deleted, or given another account): the app is unsubscribed
 * from the account's webhooks (`DELETE /{waba_id}/subscribed_apps`), unless another channel of the gateway has a
 * number of the same account, whose updates the subscription still brings. Throws when Meta cannot be told; a
 * channel with no token (made in a sandbox run) has nothing to let go.
 */
export async function letGoOfAccount(deps: WhatsAppDeps, pacer: Pacer, channelId: string, sealed: string | null, signal?: AbortSignal): Promise<void> {
  const number = numberOf(deps.cipher, sealed);
  if (!number) return;
  const holders = (await deps.channels.listByMessengerAccountId('wapi', number.waba_id)).filter((c) => c.id !== channelId);
  if (holders.length > 0) return;
  try {
    await pacedNumber(deps, pacer, number, signal).call('DELETE', `/${number.waba_id}/subscribed_apps`);
  } catch (err) {
    // A token Meta no longer takes: the account let the app go already.
    if (!isTokenRefused(err)) throw err;
  }
}
