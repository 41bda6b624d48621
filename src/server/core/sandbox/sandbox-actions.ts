import { createHash } from 'node:crypto';
import type { Channel } from '../../../contract/channel-api.ts';
import { hashSecret } from '../accounts/token-secret.ts';
import { applyTrigger, channelNotFound, withChannel, wrongStatus } from '../channels/channel-steps.ts';
import { toChannel } from '../channels/channel-view.ts';
import { authorizationCompleted, qrScanned } from '../channels/messenger-events.ts';
import type { ChannelDeps } from '../channels/ports.ts';
import { validationError } from '../errors.ts';

/**
 * The sandbox API acting as the other side of the messenger network: the phone that scans, the user who
 * follows the business-API link, the platform that revokes a bot token.
 */

/** A stable phone number for a channel whose scanning phone was not named: 79 and nine digits. */
export function defaultSandboxPhone(channelId: string): string {
  const digits = BigInt(`0x${createHash('sha256').update(channelId).digest('hex').slice(0, 15)}`) % 1_000_000_000n;
  return `79${digits.toString().padStart(9, '0')}`;
}

const displayName = (phone: string) => `Sandbox +${phone}`;

/**
 * `POST /v2/sandbox/channels/{id}/scan`: a phone scans the live QR. Without `phone`, the phone the pairing code
 * was issued for confirms it, else the channel's own phone, else a stable one of the sandbox.
 */
export async function sandboxScan(deps: ChannelDeps, accountId: string, channelId: string, phone: string | undefined): Promise<Channel> {
  const channel = await deps.store.channels.get(accountId, channelId);
  if (!channel) throw channelNotFound(channelId);
  if (phone && channel.pairing && phone !== channel.pairing.phone) {
    throw validationError([{ field: 'phone', message: `the pairing code was issued for ${channel.pairing.phone}` }]);
  }
  const scanning = phone ?? channel.pairing?.phone ?? channel.phone ?? defaultSandboxPhone(channelId);
  const hasPassword = (await deps.store.sandbox.twoFactorPassword(accountId, scanning)) !== null;
  return qrScanned(deps, accountId, channelId, {
    phone: scanning,
    needsPassword: hasPassword && deps.rules[channel.transport].capabilities.two_factor,
    profile: { name: displayName(scanning), messengerId: scanning },
  });
}

/**
 * `PUT /v2/sandbox/phones/{phone}/two-factor`: the account behind the phone sets (or removes) its password. The
 * phone is the calling account's own: its channels are the ones that scan it.
 */
export async function setSandboxPassword(deps: ChannelDeps, accountId: string, phone: string, password: string | null): Promise<{ phone: string; two_factor: boolean }> {
  await deps.store.sandbox.setTwoFactorPassword(accountId, phone, password);
  return { phone, two_factor: password !== null };
}

/** `POST /v2/sandbox/channels/{id}/revoke-token`: the bot's token is revoked; the channel loses its session. */
export async function revokeSandboxBotToken(deps: ChannelDeps, accountId: string, channelId: string): Promise<Channel> {
  return withChannel(deps, accountId, channelId, async (tx, channel) => {
    const credentials = channel.credentials ? deps.cipher.open(channel.credentials) : {};
    const token = credentials.telegram_token ?? credentials.access_token;
    if (typeof token !== 'string') throw wrongStatus(channel, 'Only bot channels (telegram, maxbot) have a token to revoke');
    await tx.sandbox.revokeToken(hashSecret(token));
    return toChannel(await applyTrigger(tx, deps, channel, 'logged_out'), deps);
  });
}

/**
 * `GET /sandbox/authorize/{id}`: the user followed the authorization URL: a business-API number gets its phone
 * and first tier; a VK community its id and name (a stable one per channel, as the phone is).
 */
export function sandboxAuthorize(deps: ChannelDeps, channelId: string, url: string): Promise<Channel> {
  const phone = defaultSandboxPhone(channelId);
  return authorizationCompleted(deps, channelId, url, (channel) => {
    if (channel.transport === 'instAPI') {
      // The Instagram business account the sandbox's Facebook login grants: an account id of Meta's shape, and a name.
      const account = `sandbox_${phone.slice(-6)}`;
      return { messengerId: `178414${phone.slice(-11).padStart(11, '0')}`, username: account, name: `Sandbox Instagram ${account}` };
    }
    if (channel.transport !== 'vk') return { phone, name: displayName(phone), messengerId: phone, tier: 'TIER_1K' };
    const club = phone.slice(2);
    return { messengerId: `club${club}`, username: `club${club}`, name: `Sandbox VK community ${club}` };
  });
}
