import type { MessageDeps } from '../../core/messages/ports.ts';
import type { PlatformReport } from '../../core/messages/platform-reports.ts';
import type { RunningSession, SessionContext, SessionDriver, SessionLeases } from '../../core/sessions/ports.ts';
import { sessionEnded, sessionLinked, sessionQrIssued, sessionReports, sessionSynced, type SessionChannelDeps, type SessionEnd } from '../../core/sessions/session-channel.ts';
import { userOf } from './addresses.ts';
import type { GroupReport } from '../../core/groups/group-changes.ts';
import { groupOfParticipants, groupsOfUpdates, numberOf, reportsOfMessages, reportsOfUpdates, type KeepFile } from './inbound.ts';
import { disconnectCode, WaDisconnect, type WaEvents, type WaLibrary, type WaSocket } from './wa-socket.ts';

/** How a lost connection is tried again: from `baseMs`, doubling, at most `maxMs`, each wait drawn in its upper half. */
export interface Backoff {
  baseMs: number;
  maxMs: number;
}

export const defaultBackoff: Backoff = { baseMs: 1_000, maxMs: 60_000 };

export interface WhatsAppSessionDeps {
  library: WaLibrary;
  /** WHATSAPP_WS_URL: WhatsApp Web's WebSocket address (the library's own when null). */
  wsUrl: string | null;
  channels: SessionChannelDeps;
  /** The message use-cases, once the gateway has built them. */
  messages(): MessageDeps | null;
  leases: Pick<SessionLeases, 'remove'>;
  /** Keeps the files of a channel's messages, downloaded through the socket that heard them. */
  files?(channelId: string, socket: WaSocket): KeepFile;
  /** Records a group's change (members in or out, a new subject). */
  group?(channelId: string, report: GroupReport): Promise<void>;
  /** Numbers that wrote to a channel (`<channel id>:<number>`): they have WhatsApp. */
  known?: Set<string>;
  backoff?: Backoff;
  /** Draws the jitter (tests seed it). */
  random?: () => number;
  log(err: unknown, message: string): void;
}

/** Sockets of the sessions this process runs, by channel: the linked ones (sends go through them), or every open one. */
export type LiveSockets = Map<string, WaSocket>;

/** How far back the files of the history WhatsApp sends (on linking) are kept; older ones are their captions only. */
export const HISTORY_FILES_MS = 24 * 60 * 60 * 1000;

/** Keeps only the files of messages sent in the last day: a linked account's history would otherwise be downloaded whole. */
const recentFilesOnly =
  (keep: KeepFile, now: Date): KeepFile =>
  (message, chat, media) =>
    (numberOf(message.messageTimestamp) ?? 0) * 1000 >= now.getTime() - HISTORY_FILES_MS ? keep(message, chat, media) : Promise.resolve(null);

/** The wait before reconnect attempt `attempt` (0-based): exponential, capped, with jitter in its upper half. */
export const reconnectDelayMs = (backoff: Backoff, attempt: number, random: () => number): number => {
  const ceiling = Math.min(backoff.maxMs, backoff.baseMs * 2 ** attempt);
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
};

/** How the messenger's closing of a connection ends the session, if it does (else it is reconnected). */
function endOf(code: number | undefined, linked: boolean): SessionEnd | null {
  switch (code) {
    case WaDisconnect.loggedOut:
    case WaDisconnect.forbidden:
    case WaDisconnect.multideviceMismatch:
    case WaDisconnect.badSession:
      return 'logged_out';
    case WaDisconnect.connectionReplaced:
      return 'opened_elsewhere';
    case WaDisconnect.timedOut:
      // Before a scan, the library closes with this once WhatsApp's codes ran out.
      return linked ? null : 'qr_exhausted';
    default:
      return null;
  }
}

/**
 * One WhatsApp session: its socket, opened with the sealed state, and kept up. Short losses are reconnected with
 * backoff and no change of the channel's status; what WhatsApp reports (a QR, the scan, the end of the history, a
 * logout, the account opened elsewhere) moves the channel through the core's session steps. Messages, receipts, edits
 * and deletes are recorded by WhatsApp's message id, so what comes again after a reconnect is recorded once.
 */
export function whatsappSessionDriver(deps: WhatsAppSessionDeps, sockets: LiveSockets, opened: LiveSockets = new Map()): SessionDriver {
  const backoff = deps.backoff ?? defaultBackoff;
  const random = deps.random ?? Math.random;
  return {
    transport: 'whatsapp',
    async start(context: SessionContext): Promise<RunningSession> {
      const { channelId } = context;
      let socket: WaSocket | null = null;
      let attempt = 0;
      let timer: NodeJS.Timeout | null = null;
      let stopped = false;
      let linked = false;
      /** Whether this run showed a QR: a session restored from its state never does. */
      let showedQr = false;
      let caughtUp = false;
      /** Reports the channel could not take yet (it is still syncing): recorded once it is active. */
      let held: PlatformReport[] = [];

      const close = () => {
        if (timer) clearTimeout(timer);
        timer = null;
        if (socket) {
          sockets.delete(channelId);
          opened.delete(channelId);
        }
        socket?.end();
        socket = null;
      };
      /** The session is over on WhatsApp's side or the channel's: nobody runs it again until a reinit. */
      const finish = async (why: SessionEnd | null, forget: boolean) => {
        stopped = true;
        close();
        if (why) await sessionEnded(deps.channels, context, why).catch((err: unknown) => deps.log(err, 'recording a WhatsApp session end failed'));
        if (forget) await context.state.clear().catch(() => {});
        await context.state.end().catch((err: unknown) => deps.log(err, 'ending a WhatsApp session failed'));
      };
      let updating: Promise<void> = Promise.resolve();
      /** One recording at a time, in the order WhatsApp reported them. */
      let recording: Promise<void> = Promise.resolve();
      /** Records what WhatsApp reported (made ready in turn: a file is downloaded when its message's turn comes). */
      const record = (given: PlatformReport[] | (() => Promise<PlatformReport[]>)): Promise<void> => {
        const next = recording.then(async () => {
          const messages = deps.messages();
          const reports = typeof given === 'function' ? await given() : given;
          if (!messages || reports.length + held.length === 0) return;
          const all = [...held, ...reports];
          held = [];
          const outcome = await sessionReports(messages, context, all);
          if (outcome === 'not_yet') held = all;
        });
        recording = next.catch(() => {});
        return next;
      };
      const remember = (reports: PlatformReport[]) => {
        for (const r of reports) if (r.kind === 'message' && r.message.chatType === 'whatsapp') deps.known?.add(`${channelId}:${r.message.chatId}`);
        return reports;
      };
      const reportsFailed = (err: unknown) => deps.log(err, 'recording WhatsApp messages failed');

      const connect = async () => {
        if (stopped || context.signal.aborted) return;
        const fresh = await deps.library.open({ state: context.state, wsUrl: deps.wsUrl, onStateError: (err) => deps.log(err, 'saving a WhatsApp session state failed') });
        if (stopped || context.signal.aborted) return fresh.end();
        socket = fresh;
        opened.set(channelId, fresh);
        // One update at a time, in WhatsApp's order: a code repeated after a newer one is not a new code.
        fresh.on('connection.update', (update) => {
          updating = updating.then(() => onUpdate(fresh, update)).catch((err: unknown) => deps.log(err, 'a WhatsApp connection update failed'));
        });
        const keep = deps.files?.(channelId, fresh) ?? null;
        fresh.on('messages.upsert', ({ messages }) => void record(async () => remember(await reportsOfMessages(messages, keep))).catch(reportsFailed));
        fresh.on('messages.update', (updates) => void record(reportsOfUpdates(updates)).catch(reportsFailed));
        fresh.on('messaging-history.set', ({ messages, isLatest, progress }) => {
          void record(() => reportsOfMessages(messages, keep && recentFilesOnly(keep, deps.channels.clock.now()))).catch(reportsFailed);
          if (isLatest || progress === 100) void synced();
        });
        const group = (report: GroupReport | null) => {
          if (!report || !deps.group) return;
          const next = recording.then(() => deps.group!(channelId, report));
          recording = next.catch((err: unknown) => deps.log(err, 'recording a WhatsApp group change failed'));
        };
        fresh.on('group-participants.update', (update) => group(groupOfParticipants(update)));
        fresh.on('groups.update', (updates) => groupsOfUpdates(updates).forEach(group));
      };
      const reconnect = (delayMs: number) => {
        close();
        if (stopped || context.signal.aborted) return;
        timer = setTimeout(() => {
          timer = null;
          connect().catch((err: unknown) => {
            deps.log(err, 'reconnecting a WhatsApp session failed');
            reconnect(reconnectDelayMs(backoff, attempt++, random));
          });
        }, delayMs);
      };
      const synced = async () => {
        caughtUp = true;
        if (!linked) return;
        await sessionSynced(deps.channels, context);
        await record([]);
      };

      const onUpdate = async (from: WaSocket, u: WaEvents['connection.update']) => {
        if (from !== socket) return;
        if (u.qr) showedQr = true;
        if (u.qr && (await sessionQrIssued(deps.channels, context, u.qr, 'whatsapp')) === 'end') return finish(null, true);
        if (u.receivedPendingNotifications) await synced();
        if (u.connection === 'open') {
          attempt = 0;
          const user = from.user();
          if (!user) return;
          const phone = userOf(user.id);
          const verdict = await sessionLinked(deps.channels, context, phone, { messengerId: phone, name: user.name ?? null });
          if (verdict === 'end') {
            // Another number scanned on a reinit: it is not this channel's, so it is let go on WhatsApp too.
            await from.logout().catch(() => {});
            return finish(null, true);
          }
          linked = true;
          sockets.set(channelId, from);
          if (caughtUp) await synced();
        }
        if (u.connection === 'close') {
          const code = disconnectCode(u.lastDisconnect?.error);
          const end = endOf(code, linked || !showedQr);
          if (end) return finish(end, end === 'logged_out' || end === 'qr_exhausted');
          // A restart WhatsApp asks for (right after a scan) is made at once, the first time; asked again before the
          // connection opened, or any other loss, it waits its turn (never a loop).
          const delayMs = code === WaDisconnect.restartRequired && attempt === 0 ? 0 : reconnectDelayMs(backoff, attempt, random);
          attempt++;
          reconnect(delayMs);
        }
      };

      await connect();
      return {
        async stop() {
          stopped = true;
          close();
        },
        async logout() {
          // Let go of first (not ended: the logout goes through it), so the close the logout brings (401) is not
          // taken for a logout on the phone. A session never linked has no device to log out.
          stopped = true;
          const current = socket;
          socket = null;
          close();
          sockets.delete(channelId);
          opened.delete(channelId);
          try {
            if (current && linked) await current.logout();
          } finally {
            current?.end();
          }
        },
      };
    },
    async logout(context: SessionContext): Promise<void> {
      // A connection of its own, with the stored keys, only to log the device out: nothing it hears is recorded.
      const socket = await deps.library.open({ state: context.state, wsUrl: deps.wsUrl, onStateError: (err) => deps.log(err, 'saving a WhatsApp session state failed') });
      try {
        await new Promise<void>((resolve, reject) => {
          context.signal.addEventListener('abort', () => resolve(), { once: true });
          socket.on('connection.update', (u) => {
            // A session never linked shows a QR instead: there is no device to log out.
            if (u.qr || u.connection === 'close') resolve();
            if (u.connection === 'open') socket.logout().then(resolve, reject);
          });
        });
      } finally {
        socket.end();
      }
    },
  };
}
