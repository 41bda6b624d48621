import { channelQrEvent } from '../channels/channel-events.ts';
import { applyTrigger } from '../channels/channel-steps.ts';
import type { ChannelProfile, ChannelRecord } from '../channels/ports.ts';
import { QR_CODES_BEFORE_IDLE } from '../channels/qr-cycle.ts';
import { transition, type ChannelTrigger } from '../channels/state-machine.ts';
import type { QrPlatform } from '../channels/transport-rules.ts';
import type { PlatformOutcome } from '../messages/inbound.ts';
import { platformReports, type PlatformReport } from '../messages/platform-reports.ts';
import type { MessageDeps } from '../messages/ports.ts';
import type { Clock, Store, TransactionScope } from '../ports.ts';
import { SessionLeaseLost, type FencedSession } from './ports.ts';

/**
 * What a long-lived session reports of its channel, and how the channel moves: each in one transaction on the
 * channel's locked row, from whichever process runs the session, and only while that process still holds the
 * session's lease (its fence). A process that lost the lease (it stalled, another took over) has every such write
 * refused: SessionLeaseLost is thrown, nothing is written, and the session is stopped at once. Codes and steps come as
 * the messenger issues them (a personal account's QR is the messenger's, not a timer's).
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

/**
 * Checks the session's fence in `tx` (holding the session's row until the transaction ends, so no takeover commits
 * meanwhile): a stale one stops the session and throws SessionLeaseLost, which rolls the transaction back. Checked in
 * the transaction, never before it: a process that stalled past its lease sees its timers and sockets' events fire
 * late, and only the database knows whether the lease is still its own.
 */
export async function checkFence(tx: TransactionScope, session: FencedSession): Promise<void> {
  if (await tx.sessionFences.holds(session.fence)) return;
  session.lost();
  throw new SessionLeaseLost(session.fence.channelId);
}

/** Runs `work` in one transaction that is committed only while the session's lease is still `session.fence`. */
export function withSessionFence<T>(store: Store, session: FencedSession, work: (tx: TransactionScope) => Promise<T>): Promise<T> {
  return store.transaction(async (tx) => {
    await checkFence(tx, session);
    return work(tx);
  });
}

async function onChannel<T>(deps: SessionChannelDeps, session: FencedSession, work: (channel: ChannelRecord, tx: TransactionScope) => Promise<T>, gone: T): Promise<T> {
  return withSessionFence(deps.store, session, async (tx) => {
    const channel = await tx.channels.getByIdForUpdate(session.fence.channelId);
    return channel ? work(channel, tx) : gone;
  });
}

/**
 * The messenger issued a QR for the channel to show: saved (so that every process and the connect frame see the
 * current one) and announced as `channel.qr_update`. The same code again changes nothing; past the last code the
 * channel goes idle (`disabled`/`qridle`) and the session should end. A channel no longer waiting for a scan ends it.
 */
export async function sessionQrIssued(deps: SessionChannelDeps, session: FencedSession, payload: string, platform: QrPlatform): Promise<SessionVerdict> {
  const image = await deps.renderQr(payload);
  return onChannel(
    deps,
    session,
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

/** Another channel of the same account that holds the number already (linked, or being linked to it on a reinit). */
async function heldByAnother(tx: TransactionScope, channel: ChannelRecord, phone: string): Promise<boolean> {
  await tx.channels.lockMessengerId(channel.transport, phone);
  const holders = await tx.channels.listByMessengerId(channel.transport, phone);
  return holders.some((c) => c.id !== channel.id && c.accountId === channel.accountId && c.state.status !== 'disabled');
}

/**
 * The session is linked to an account (`phone`): a channel waiting for the scan moves to `init`/`sync`; the session
 * ends instead when another number than the channel's own scanned on a reinit (`disabled`/`foreignphone`), or when
 * another channel of the same account holds the number already (`disabled`/`openelsewhere`: one phone, one channel,
 * so a customer's message is recorded once). A channel running already keeps its state and learns the profile.
 */
export async function sessionLinked(deps: SessionChannelDeps, session: FencedSession, phone: string, profile: Partial<ChannelProfile>): Promise<SessionVerdict> {
  return onChannel(
    deps,
    session,
    async (channel, tx) => {
      if (waitingForScan(channel)) {
        if (channel.phone !== null && channel.phone !== phone) {
          await applyTrigger(tx, deps, channel, 'qr_scanned_by_foreign_phone', { qr: null, pairing: null });
          return 'end';
        }
        if (await heldByAnother(tx, channel, phone)) {
          await applyTrigger(tx, deps, channel, 'opened_elsewhere', { qr: null, pairing: null });
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
export async function sessionSynced(deps: SessionChannelDeps, session: FencedSession): Promise<void> {
  await onChannel(
    deps,
    session,
    async (channel, tx) => {
      if (channel.state.status === 'init' && channel.state.reason === 'sync') await applyTrigger(tx, deps, channel, 'history_synced');
    },
    undefined,
  );
}

export type SessionEnd = Extract<ChannelTrigger, 'logged_out' | 'opened_elsewhere' | 'qr_exhausted'>;

/**
 * The messenger ended the session: logged out on the phone, opened elsewhere, or the codes ran out unscanned. Fenced
 * like every step: a process that lost the lease (and reads WhatsApp's "replaced" because another process of the
 * gateway runs the session now) changes nothing.
 */
export async function sessionEnded(deps: SessionChannelDeps, session: FencedSession, why: SessionEnd): Promise<void> {
  await onChannel(
    deps,
    session,
    async (channel, tx) => {
      if (transition(channel.state, why).ok) await applyTrigger(tx, deps, channel, why, { qr: null, pairing: null });
    },
    undefined,
  );
}

/** What the session heard (messages, receipts, edits, deletes), recorded only while its lease is still `session.fence`. */
export function sessionReports(deps: MessageDeps, session: FencedSession, reports: readonly PlatformReport[]): Promise<PlatformOutcome> {
  return platformReports(deps, session.fence.channelId, reports, (tx) => checkFence(tx, session));
}

/** Whether the channel still wants its session run (not switched off, not gone). */
export async function sessionWanted(deps: Pick<SessionChannelDeps, 'store'>, channelId: string): Promise<ChannelRecord | null> {
  const channel = await deps.store.channels.getById(channelId);
  return channel && channel.state.status !== 'disabled' ? channel : null;
}
