import type { Channel } from '../../../contract/channel-api.ts';
import type { Tier } from '../../../contract/channels.ts';
import { hashSecret, secretMatches } from '../accounts/token-secret.ts';
import { AppError, validationError } from '../errors.ts';
import { channelTierEvent } from './channel-events.ts';
import { applyTrigger, channelNotFound, qrIsLive, withChannel, wrongStatus } from './channel-steps.ts';
import { toChannel } from './channel-view.ts';
import type { ChannelDeps, ChannelProfile, ChannelRecord } from './ports.ts';
import { transition, type ChannelTrigger } from './state-machine.ts';

/**
 * What the messenger side reports about a channel, and how the channel reacts. The sandbox API drives these;
 * real drivers call them from the platforms' callbacks.
 */

export interface QrScan {
  phone: string;
  /** The scanning account has two-factor authentication and must give its password next. */
  needsPassword: boolean;
  profile: Partial<ChannelProfile>;
}

/** A phone scanned the live QR (or confirmed the pairing code). */
export async function qrScanned(deps: ChannelDeps, accountId: string, channelId: string, scan: QrScan): Promise<Channel> {
  return withChannel(deps, accountId, channelId, async (tx, channel) => {
    if (!qrIsLive(channel, deps.clock.now())) {
      if (channel.state.status === 'disabled' && channel.state.reason === 'qridle') {
        throw new AppError('CHANNEL_QR_EXPIRED', 'The QR code expired; reinit the channel first', { status: 'disabled', reason: 'qridle' });
      }
      throw wrongStatus(channel, 'Channel shows no QR code to scan');
    }
    const cleared = { qr: null, pairing: null };
    if (channel.phone !== null && channel.phone !== scan.phone) {
      return toChannel(await applyTrigger(tx, deps, channel, 'qr_scanned_by_foreign_phone', cleared), deps);
    }
    const profile = { ...cleared, ...scan.profile, phone: scan.phone };
    if (scan.needsPassword) return toChannel(await applyTrigger(tx, deps, channel, 'qr_scanned_needs_password', profile), deps);
    const syncing = await applyTrigger(tx, deps, channel, 'qr_scanned', profile);
    await tx.jobs.enqueue('channels.sync', { channelId });
    return toChannel(syncing, deps);
  });
}

/** Sync job: the history of a scanned channel is loaded; it becomes active. Stale when the channel moved on. */
export async function historySynced(deps: ChannelDeps, channelId: string): Promise<void> {
  await deps.store.transaction(async (tx) => {
    const channel = await tx.channels.getByIdForUpdate(channelId);
    if (channel?.state.status === 'init' && channel.state.reason === 'sync') await applyTrigger(tx, deps, channel, 'history_synced');
  });
}

export type MessengerReport = Extract<ChannelTrigger, 'logged_out' | 'blocked' | 'rejected' | 'opened_elsewhere'>;

/** The session ended on the phone, the number was blocked or rejected, or the account was opened elsewhere. */
export async function messengerReported(deps: ChannelDeps, accountId: string, channelId: string, report: MessengerReport): Promise<Channel> {
  return withChannel(deps, accountId, channelId, async (tx, channel) => {
    if ((report === 'blocked' || report === 'rejected') && channel.transport !== 'wapi') {
      throw validationError([{ field: 'channel_id', message: 'only business-API (wapi) channels are blocked or rejected' }]);
    }
    return toChannel(await applyTrigger(tx, deps, channel, report, { qr: null, pairing: null }), deps);
  });
}

/**
 * A platform refused the channel's credentials while it worked (a bot token revoked in @BotFather): an active
 * channel loses its session (`disabled`/`unauthorized`, as a logout), and waits for a reinit with new ones.
 * Known by the channel alone, as a live driver learns it; a channel already off, or gone, or given other
 * credentials since the refused call (`sealed` is what that call used), is left as it is.
 */
export async function credentialsRevoked(deps: ChannelDeps, channelId: string, sealed: string | null): Promise<void> {
  await deps.store.transaction(async (tx) => {
    const channel = await tx.channels.getByIdForUpdate(channelId);
    if (channel?.state.status === 'active' && channel.credentials === sealed) await applyTrigger(tx, deps, channel, 'logged_out');
  });
}

/**
 * Billing: an unpaid channel is disabled with `not_enough_money`, and paying again makes it active. A channel
 * already off for another reason only records whether it is paid (reinit waits for the payment).
 */
export async function paymentChanged(deps: ChannelDeps, accountId: string, channelId: string, paid: boolean): Promise<Channel> {
  return withChannel(deps, accountId, channelId, async (tx, channel) => {
    if (channel.paid === paid) return toChannel(channel, deps);
    const trigger = paid ? 'payment_received' : 'payment_missed';
    if (transition(channel.state, trigger).ok) {
      return toChannel(await applyTrigger(tx, deps, channel, trigger, { paid, qr: null, pairing: null }), deps);
    }
    const next: ChannelRecord = { ...channel, paid, updatedAt: deps.clock.now() };
    await tx.channels.update(next);
    return toChannel(next, deps);
  });
}

/** Business API: how many conversations the number may start within 24 hours changed. */
export async function tierChanged(deps: ChannelDeps, accountId: string, channelId: string, tier: Tier): Promise<Channel> {
  return withChannel(deps, accountId, channelId, async (tx, channel) => {
    if (channel.transport !== 'wapi') throw validationError([{ field: 'channel_id', message: 'only business-API (wapi) channels have a tier' }]);
    const next: ChannelRecord = { ...channel, tier, updatedAt: deps.clock.now() };
    await tx.channels.update(next);
    await channelTierEvent(tx, deps.clock, next, tier);
    return toChannel(next, deps);
  });
}

/**
 * wapi and vk: the user followed the authorization URL (the business number's, the VK community's). The URL
 * itself is the proof; anything else is not found. `profileOf` says what the platform tells of the channel.
 */
export async function authorizationCompleted(
  deps: ChannelDeps,
  channelId: string,
  url: string,
  profileOf: (channel: ChannelRecord) => Partial<ChannelProfile> & { tier?: Tier },
): Promise<Channel> {
  return deps.store.transaction(async (tx) => {
    const channel = await tx.channels.getByIdForUpdate(channelId);
    if (!channel?.authUrl || !secretMatches(url, hashSecret(channel.authUrl))) throw channelNotFound(channelId);
    const { tier, ...rest } = profileOf(channel);
    const next = await applyTrigger(tx, deps, channel, 'redirect_completed', { ...rest, ...(tier ? { tier } : {}), authUrl: null });
    if (tier) await channelTierEvent(tx, deps.clock, next, tier);
    return toChannel(next, deps);
  });
}

/**
 * A live platform reports the number's tier changed (Meta's `phone_number_quality_update`), on a channel it knows by
 * id: `channel.waba_tier_update` when it differs from the channel's; a channel gone is left alone.
 */
export async function tierReported(deps: Pick<ChannelDeps, 'store' | 'clock'>, channelId: string, tier: Tier): Promise<void> {
  await deps.store.transaction(async (tx) => {
    const channel = await tx.channels.getByIdForUpdate(channelId);
    if (!channel || channel.tier === tier) return;
    const next: ChannelRecord = { ...channel, tier, updatedAt: deps.clock.now() };
    await tx.channels.update(next);
    await channelTierEvent(tx, deps.clock, next, tier);
  });
}

/**
 * A live platform banned or restricted the channel's account (Meta's `account_update`): an active or connecting
 * channel is switched off (`disabled`/`blocked`, with `channel.status_update`) until a reinit; one off already is left.
 */
export async function accountBlocked(deps: Pick<ChannelDeps, 'store' | 'clock'>, channelId: string): Promise<void> {
  await deps.store.transaction(async (tx) => {
    const channel = await tx.channels.getByIdForUpdate(channelId);
    if (channel && transition(channel.state, 'blocked').ok) await applyTrigger(tx, deps, channel, 'blocked');
  });
}
