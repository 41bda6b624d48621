import { randomInt } from 'node:crypto';
import type { AuthorizationGrant } from '../../core/channels/authorization-return.ts';
import type { ChannelRecord } from '../../core/channels/ports.ts';
import { syncChannelTemplates } from '../../core/templates/platform-templates.ts';
import type { CallPacer } from '../call-pacer.ts';
import { GraphApiError } from '../meta/graph-api.ts';
import { numberOf, pacedNumber, type NumberCredentials, type WhatsAppDeps } from './account.ts';
import { isTokenRefused } from './cloud-failures.ts';
import { phoneDigits, tierOf } from './number-profile.ts';
import { refusals } from './refusals.ts';
import type { FreeNumber } from './signup-grant.ts';
import { unavailable } from './signup-grant.ts';
import { accountTemplates } from './templates.ts';

/**
 * The number the owner's signup gave (the only one free, or the one chosen) becomes the channel's: the app is
 * subscribed to the account's webhooks (`POST /{waba_id}/subscribed_apps`), the number registered with the Cloud API
 * where it is not yet (`POST /{phone_number_id}/register` with a two-step verification PIN of the gateway's choosing),
 * and the account's templates read. Documented in Embedded Signup's "Onboarding business customers as a Tech
 * Provider". Inferred: that a number to register whose PIN was set otherwise is refused with 133005 (Meta's "two step
 * verification PIN mismatch"). Throws where Meta could not be asked (nothing changed: the owner may come back).
 */
export async function connectNumber(deps: WhatsAppDeps, pacer: CallPacer, channel: ChannelRecord, token: string, number: FreeNumber): Promise<AuthorizationGrant | { refused: string }> {
  const kept: NumberCredentials = { business_token: token, waba_id: number.wabaId, phone_number_id: number.id, pin: null };
  const api = pacedNumber(deps, pacer, kept);
  try {
    await api.call('POST', `/${number.wabaId}/subscribed_apps`);
  } catch (err) {
    throw unavailable(err, `POST /${number.wabaId}/subscribed_apps`);
  }
  if (number.platform_type !== 'CLOUD_API') {
    // The business's two-step verification PIN, set by registering: kept, sealed, for registering again later.
    kept.pin = String(randomInt(0, 1_000_000)).padStart(6, '0');
    try {
      await api.call('POST', `/${number.id}/register`, { body: { messaging_product: 'whatsapp', pin: kept.pin } });
    } catch (err) {
      if (err instanceof GraphApiError && err.code === 133005) return { refused: refusals.pinSet };
      throw unavailable(err, `POST /${number.id}/register`);
    }
  }
  // Another account in the channel's place (a reinit): the one before stops posting here, unless another channel has it.
  const before = numberOf(deps.cipher, channel.credentials);
  if (before && before.waba_id !== number.wabaId) await letGoOfAccount(deps, pacer, channel.id, channel.credentials).catch(() => {});
  // The account's templates, listed with the channel from the start; should Meta fail to give them now, the hook
  // refresh and Meta's moderation webhooks bring them later.
  await accountTemplates(api, number.wabaId)
    .then((read) => syncChannelTemplates(deps, channel.id, read))
    .catch(() => {});
  const phone = phoneDigits(number.display_phone_number);
  return {
    profile: { messengerId: number.id, messengerAccountId: number.wabaId, phone, name: number.verified_name ?? phone, username: null },
    tier: tierOf(number.messaging_limit_tier),
    credentials: { ...kept },
  };
}

/**
 * The channel no longer takes its account's updates (deleted, or given another account): the app is unsubscribed
 * from the account's webhooks (`DELETE /{waba_id}/subscribed_apps`), unless another channel of the gateway has a
 * number of the same account, whose updates the subscription still brings. Throws when Meta cannot be told; a
 * channel with no token (made in a sandbox run) has nothing to let go.
 */
export async function letGoOfAccount(deps: WhatsAppDeps, pacer: CallPacer, channelId: string, sealed: string | null, signal?: AbortSignal): Promise<void> {
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
