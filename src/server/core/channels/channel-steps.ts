import { AppError } from '../errors.ts';
import type { TransactionScope } from '../ports.ts';
import { channelQrEvent, channelStatusEvent } from './channel-events.ts';
import type { ChannelDeps, ChannelRecord } from './ports.ts';
import { QR_LIFETIME_MS, qrProgress } from './qr-cycle.ts';
import { transition, type ChannelTrigger } from './state-machine.ts';

/** The building blocks every channel operation is made of, each inside the caller's transaction. */

export const channelNotFound = (channelId: string): AppError =>
  new AppError('CHANNEL_NOT_FOUND', 'Channel not found', { channel_id: channelId });

export const wrongStatus = (channel: ChannelRecord, description = 'Operation is not valid in the channel status'): AppError =>
  new AppError('CHANNEL_WRONG_STATUS', description, { status: channel.state.status, reason: channel.state.reason });

/** Moves the channel by the state machine's table, saving it and announcing a changed status. */
export async function applyTrigger(
  tx: TransactionScope,
  { clock }: Pick<ChannelDeps, 'clock'>,
  channel: ChannelRecord,
  trigger: ChannelTrigger,
  changes: Partial<Omit<ChannelRecord, 'id' | 'accountId' | 'state'>> = {},
): Promise<ChannelRecord> {
  const result = transition(channel.state, trigger);
  if (!result.ok) throw wrongStatus(channel);
  const next: ChannelRecord = { ...channel, ...changes, state: result.state, updatedAt: clock.now() };
  await tx.channels.update(next);
  if (result.changed) await channelStatusEvent(tx, clock, next);
  return next;
}

/** Shows a new QR code: saves it, sends `channel.qr_update`, and sets the timer for its end of life. */
export async function issueQr(
  tx: TransactionScope,
  { clock, driver, rules }: Pick<ChannelDeps, 'clock' | 'driver' | 'rules'>,
  channel: ChannelRecord,
  cycle: { shown: number; issuedAt: Date },
): Promise<ChannelRecord> {
  const platform = rules[channel.transport].qrPlatform;
  if (!platform) throw new Error(`transport ${channel.transport} has no QR flow`);
  const payload = await driver.newQrPayload(channel.id, channel.transport);
  const next: ChannelRecord = { ...channel, qr: { payload, ...cycle }, updatedAt: clock.now() };
  await tx.channels.update(next);
  await channelQrEvent(tx, clock, next, await driver.renderQr(payload), platform);
  await tx.jobs.enqueue('channels.qr_tick', { channelId: channel.id, shown: cycle.shown }, { startAfter: new Date(cycle.issuedAt.getTime() + QR_LIFETIME_MS) });
  return next;
}

/**
 * Brings a connecting channel's QR up to `now`: the next code when the current one expired, `qridle` after
 * the last. Called by the timer job and before every operation, so a late timer never shows a stale state. A
 * transport whose codes come from the channel's session is left to it: the session issues each code as the messenger
 * does, and counts them to `qridle` itself.
 */
export async function catchUpQr(tx: TransactionScope, deps: ChannelDeps, channel: ChannelRecord): Promise<ChannelRecord> {
  if (channel.state.status !== 'init' || channel.state.reason !== 'qr' || !channel.qr) return channel;
  if (qrFromSession(deps, channel)) return channel;
  const progress = qrProgress(channel.qr, deps.clock.now());
  switch (progress.kind) {
    case 'live':
      return channel;
    case 'exhausted':
      return applyTrigger(tx, deps, channel, 'qr_exhausted', { qr: null, pairing: null });
    case 'refresh':
      return issueQr(tx, deps, channel, { shown: progress.shown, issuedAt: progress.issuedAt });
  }
}

/**
 * True when the channel shows a QR that has not expired at `now`. A code from the channel's session (`fromSession`)
 * lives until the session replaces it or the channel goes idle: the messenger, not the gateway's timer, ends it.
 */
export function qrIsLive(channel: ChannelRecord, now: Date, fromSession = false): boolean {
  if (channel.state.status !== 'init' || channel.state.reason !== 'qr' || channel.qr === null) return false;
  return fromSession || qrProgress(channel.qr, now).kind === 'live';
}

/** Whether the channel's codes come from its session (see ConnectDriver.qrFromSession). */
export const qrFromSession = (deps: Pick<ChannelDeps, 'driver'>, channel: ChannelRecord): boolean => deps.driver.qrFromSession?.(channel.transport) ?? false;

/**
 * Runs `work` on the account's channel, locked, in one transaction, after its QR was brought up to date in
 * a transaction of its own, so an expiry is kept even when the operation itself is then refused. A catch-up the
 * messenger cannot serve now (no new code to be had) changes nothing and refuses nothing: the channel is read, or
 * worked on, with the code it shows, and the QR timer tries again.
 */
export async function withChannel<T>(
  deps: ChannelDeps,
  accountId: string,
  channelId: string,
  work: (tx: TransactionScope, channel: ChannelRecord) => Promise<T>,
): Promise<T> {
  await deps.store
    .transaction(async (tx) => {
      const channel = await tx.channels.getForUpdate(accountId, channelId);
      if (channel) await catchUpQr(tx, deps, channel);
    })
    .catch(() => {});
  return deps.store.transaction(async (tx) => {
    const channel = await tx.channels.getForUpdate(accountId, channelId);
    if (!channel) throw channelNotFound(channelId);
    return work(tx, channel);
  });
}
