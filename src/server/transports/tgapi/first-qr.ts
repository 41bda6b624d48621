import { issueQr } from '../../core/channels/channel-steps.ts';
import type { ChannelDeps, ChannelRecord } from '../../core/channels/ports.ts';
import { floodWaitSeconds } from './refusals.ts';

/** How long one try to get a login token from Telegram may take before the connection is dropped and made anew. */
const TRY_TIMEOUT_MS = 30_000;
/** The longest wait between tries (they start at 1 s and double). */
const MAX_BACKOFF_MS = 60_000;

export interface FirstQrDeps {
  channels(): ChannelDeps;
  /** A login link from a new session for the channel (its session before is closed). */
  freshLink(channelId: string): Promise<string>;
  /** The channel no longer waits for its first code (deleted, or moved on): its login session, if any, is closed. */
  abandon(channelId: string): Promise<void>;
  warn(err: unknown, message: string): void;
}

const waitingForFirstQr = (channel: ChannelRecord | null | undefined) => channel?.state.status === 'init' && channel.state.reason === 'qr' && channel.qr === null;

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`Telegram did not answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * The first QR of a personal Telegram channel being connected, got in the background: the channel is created (or
 * reinitialized) at once, whatever the state of Telegram's network, and shows its first code once Telegram gave a
 * login token. Each try opens a new connection (one that hangs in a network dropping packets is given up after
 * TRY_TIMEOUT_MS); tries are repeated with a doubling wait (or the wait Telegram asked for) for as long as the channel
 * waits for that first code. The codes after it follow the channel's QR cycle, as any QR channel's do.
 */
export function firstQrs(deps: FirstQrDeps) {
  /** The login under way per channel: a reinit meanwhile starts another, and the one before stops. */
  const current = new Map<string, symbol>();
  /** Links got and not shown yet: the QR cycle asks the driver for its code, and gets this one. */
  const prepared = new Map<string, string>();
  const sleepers = new Set<() => void>();
  let closed = false;

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      timer.unref();
      sleepers.add(wake);
    });
  const isCurrent = (channelId: string, turn: symbol) => !closed && current.get(channelId) === turn;
  const channelOf = (channelId: string) => deps.channels().store.channels.getById(channelId);

  /** Shows the code; false when the channel no longer waits for it. */
  async function show(channelId: string, link: string): Promise<boolean> {
    const channelDeps = deps.channels();
    prepared.set(channelId, link);
    try {
      return await channelDeps.store.transaction(async (tx) => {
        const channel = await tx.channels.getByIdForUpdate(channelId);
        if (!channel || !waitingForFirstQr(channel)) return false;
        await issueQr(tx, channelDeps, channel, { shown: 1, issuedAt: channelDeps.clock.now() });
        return true;
      });
    } finally {
      prepared.delete(channelId);
    }
  }

  async function run(channelId: string, turn: symbol): Promise<void> {
    for (let attempt = 1; isCurrent(channelId, turn) && waitingForFirstQr(await channelOf(channelId)); attempt++) {
      try {
        const link = await withTimeout(deps.freshLink(channelId), TRY_TIMEOUT_MS);
        if (isCurrent(channelId, turn) && (await show(channelId, link))) return;
        break;
      } catch (err) {
        const asked = floodWaitSeconds(err);
        const waitMs = asked !== null ? asked * 1000 : Math.min(1000 * 2 ** (attempt - 1), MAX_BACKOFF_MS);
        deps.warn(err, `no login token from Telegram for channel ${channelId} (try ${attempt}); trying again in ${Math.round(waitMs / 1000)} s`);
        await pause(waitMs);
      }
    }
    // Deleted or moved on meanwhile: the connection opened for it goes (a newer login closes it itself).
    if (isCurrent(channelId, turn)) await deps.abandon(channelId);
  }

  return {
    /** Starts getting the channel's first code (once its row is committed). */
    start(channelId: string): void {
      const turn = Symbol(channelId);
      current.set(channelId, turn);
      void run(channelId, turn)
        .catch((err: unknown) => deps.warn(err, `showing the first QR of channel ${channelId} failed`))
        .finally(() => {
          if (current.get(channelId) === turn) current.delete(channelId);
        });
    },
    /** The link got for the code being shown now, if the first code is being shown. */
    take(channelId: string): string | undefined {
      const link = prepared.get(channelId);
      prepared.delete(channelId);
      return link;
    },
    close(): void {
      closed = true;
      for (const wake of [...sleepers]) wake();
    },
  };
}
