import { AppError } from '../errors.ts';
import { qrFromSession, qrIsLive, withChannel } from './channel-steps.ts';
import type { ChannelDeps } from './ports.ts';
import { QR_LIFETIME_MS, qrProgress } from './qr-cycle.ts';

export interface CurrentQr {
  channel_id: string;
  qr_code: string;
  platform: string;
  expires_at: string;
}

/**
 * The QR a connecting channel shows now, for a connect frame that opens (or reconnects) after the last
 * `channel.qr_update`: brought up to date first, so an expired code is replaced (or the channel went idle).
 */
export async function currentQr(deps: ChannelDeps, accountId: string, channelId: string): Promise<CurrentQr> {
  const channel = await withChannel(deps, accountId, channelId, async (_tx, current) => current);
  const platform = deps.rules[channel.transport].qrPlatform;
  const now = deps.clock.now();
  if (!platform || !channel.qr || !qrIsLive(channel, now, qrFromSession(deps, channel))) {
    throw new AppError('CHANNEL_QR_EXPIRED', 'No QR code is live; reinit the channel first', { status: channel.state.status, reason: channel.state.reason });
  }
  // A session's code ends when the session replaces it: shown as ending a lifetime from now at the latest.
  const progress = qrProgress(channel.qr, now);
  const expiresAt = progress.kind === 'live' ? progress.expiresAt : new Date(now.getTime() + QR_LIFETIME_MS);
  return { channel_id: channel.id, qr_code: await deps.driver.renderQr(channel.qr.payload), platform, expires_at: expiresAt.toISOString() };
}
