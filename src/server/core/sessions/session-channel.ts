import { channelQrEvent } from '../channels/channel-events.ts';
import { applyTrigger } from '../channels/channel-steps.ts';
import type { ChannelProfile, ChannelRecord } from '../channels/ports.ts';
import { QR_CODES_BEFORE_IDLE } from '../channels/qr-cycle.ts';
import { transition, type ChannelTrigger } from '../channels/state-machine.ts';
import type { QrPlatform } from '../channels/transport-rules.ts';
import type { Clock, Store } from '../ports.ts';

/**
 * What a long-lived session reports of its channel, and how the channel moves: each in one transaction on the
 * channel's locked row, from whichever process runs the session. Codes and steps come as the messenger issues them
 * (a personal account's QR is the messenger's, not a timer's).
 */
export interface SessionChannelDeps {
  store: Store;
  clock: Clock;
  /** Renders a QR payload as the PNG data URL `channel.qr_update` carries. */
  renderQr(payload: string): Promise<string>;
}

/** What became of a reported step: `continue`, or `end` (the session should close: idle, foreign, not wanted). */
export type SessionVerdict = 'continue' | 'end';

const waitingForScan = (channel: ChannelRecord) => channel.state.status === 'init' && channel.state.reason === 'qr';

async function onChannel<T>(deps: SessionChannelDeps, channelId: string, work: (channel: ChannelRecord, tx: Parameters<Parameters<Store['transaction']>[0]>[0]) => Promise<T>, gone: T): Promise<T> {
  return deps.store.transaction(async (tx) => {
    const channel = await tx.channels.getByIdForUpdate(channelId);
    return channel ? work(channel, tx) : gone;
  });
}

/**
 * The messenger issued a QR for the channel to show: saved (so that every process and the connect frame see the
 * current one) and announced as `channel.qr_update`. The same code again changes nothing; past the last code the
 * channel goes idle (`disabled`/`qridle`) and the session should end. A channel no longer waiting for a scan ends it.
 */
export async function sessionQrIssued(deps: SessionChannelDeps, channelId: string, payload: string, platform: QrPlatform): Promise<SessionVerdict> {
  const image = await deps.renderQr(payload);
  return onChannel(
    deps,
    channelId,
    async (channel, tx) => {
      if (!waitingForScan(channel)) return 'end';
      if (channel.qr?.payload === payload) return 'continue';
      const shown = channel.qr ? channel.qr.shown + 1 : 1;
      if (shown > QR_CODES_BEFORE_IDLE) {
        await applyTrigger(tx, deps, channel, 'qr_exhausted', { qr: null, pairing: null });
        return 'end';
      }
      const next: ChannelRecord = { ...channel, qr: { payload, shown, issuedAt: deps.clock.now() }, updatedAt: deps.clock.now() };
      await tx.channels.update(next);
      await channelQrEvent(tx, deps.clock, next, image, platform);
      return 'continue';
    },
    'end',
  );
}

/**
 * The session is linked to an account (`phone`): a channel waiting for the scan moves to `init`/`sync` (or, when
 * another number than the channel's own scanned on a reinit, to `disabled`/`foreignphone`, and the session ends);
 * a channel running already keeps its state and learns the profile.
 */
export async function sessionLinked(deps: SessionChannelDeps, channelId: string, phone: string, profile: Partial<ChannelProfile>): Promise<SessionVerdict> {
  return onChannel(
    deps,
    channelId,
    async (channel, tx) => {
      if (waitingForScan(channel)) {
        if (channel.phone !== null && channel.phone !== phone) {
          await applyTrigger(tx, deps, channel, 'qr_scanned_by_foreign_phone', { qr: null, pairing: null });
          return 'end';
        }
        await applyTrigger(tx, deps, channel, 'qr_scanned', { ...profile, phone, qr: null, pairing: null });
        return 'continue';
      }
      if (channel.state.status === 'disabled') return 'end';
      const changed = (Object.keys(profile) as (keyof ChannelProfile)[]).some((k) => profile[k] !== undefined && profile[k] !== channel[k]);
      if (changed) await tx.channels.update({ ...channel, ...profile, phone, updatedAt: deps.clock.now() });
      return 'continue';
    },
    'end',
  );
}

/** The messenger finished sending what the account missed (its history, offline messages): a syncing channel is active. */
export async function sessionSynced(deps: SessionChannelDeps, channelId: string): Promise<void> {
  await onChannel(
    deps,
    channelId,
    async (channel, tx) => {
      if (channel.state.status === 'init' && channel.state.reason === 'sync') await applyTrigger(tx, deps, channel, 'history_synced');
    },
    undefined,
  );
}

export type SessionEnd = Extract<ChannelTrigger, 'logged_out' | 'opened_elsewhere' | 'qr_exhausted'>;

/** The messenger ended the session: logged out on the phone, opened elsewhere, or the codes ran out unscanned. */
export async function sessionEnded(deps: SessionChannelDeps, channelId: string, why: SessionEnd): Promise<void> {
  await onChannel(
    deps,
    channelId,
    async (channel, tx) => {
      if (transition(channel.state, why).ok) await applyTrigger(tx, deps, channel, why, { qr: null, pairing: null });
    },
    undefined,
  );
}

/** Whether the channel still wants its session run (not switched off, not gone). */
export async function sessionWanted(deps: Pick<SessionChannelDeps, 'store'>, channelId: string): Promise<ChannelRecord | null> {
  const channel = await deps.store.channels.getById(channelId);
  return channel && channel.state.status !== 'disabled' ? channel : null;
}
