import type { MessageDeps } from '../../core/messages/ports.ts';
import type { PlatformReport } from '../../core/messages/platform-reports.ts';
import { SessionLeaseLost, type RunningSession, type SessionContext, type SessionDriver, type SessionLeases } from '../../core/sessions/ports.ts';
import { sessionEnded, sessionLinked, sessionQrIssued, sessionReports, sessionSynced, withSessionFence, type SessionChannelDeps, type SessionEnd } from '../../core/sessions/session-channel.ts';
import { userOf } from './addresses.ts';
import type { GroupReport } from '../../core/groups/group-changes.ts';
import { groupOfParticipants, groupsOfUpdates, numberOf, reportsOfMessages, reportsOfUpdates, type KeepFile } from './inbound.ts';
import { subscribePresence, typingOf, writersOf } from './presence.ts';
import { disconnectCode, WaDisconnect, type WaEvents, type WaLibrary, type WaSocket } from './wa-socket.ts';
import { sessionRestored, sessionUnreachable } from '../../core/channels/session-reachability.ts';
import { SendAcks } from './acks.ts';
import { CloseJudge } from './endings.ts';
import { WaSessionStats } from './session-stats.ts';
import { realTimers, type TimerHandle, type Timers } from './timers.ts';
import { defaultBackoff, defaultLiveness, reconnectDelayMs, type Backoff, type Liveness } from './liveness.ts';

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
  liveness?: Liveness;
  /** Draws the jitter (tests seed it). */
  random?: () => number;
  timers?: Timers;
  /** Sends written and not yet acknowledged, shared with the messaging driver. */
  acks?: SendAcks;
  stats?: WaSessionStats;
  log(err: unknown, message: string): void;
  /** The session's life: each drop, reconnect, takeover and logout, with the channel, the close code and the attempt. */
  note?(fields: { channelId: string; code?: number | undefined; attempt?: number; [key: string]: unknown }, message: string): void;
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

/**
 * One WhatsApp session: its socket, opened with the sealed state, and kept up. Short losses are reconnected with
 * backoff and no change of the channel's status; what WhatsApp reports (a QR, the scan, the end of the history, a
 * logout, the account opened elsewhere) moves the channel through the core's session steps. Messages, receipts, edits
 * and deletes are recorded by WhatsApp's message id, so what comes again after a reconnect is recorded once.
 */
export function whatsappSessionDriver(deps: WhatsAppSessionDeps, sockets: LiveSockets, opened: LiveSockets = new Map()): SessionDriver {
  const backoff = deps.backoff ?? defaultBackoff;
  const liveness = deps.liveness ?? defaultLiveness;
  const random = deps.random ?? Math.random;
  const timers = deps.timers ?? realTimers;
  const acks = deps.acks ?? new SendAcks(timers);
  const stats = deps.stats ?? new WaSessionStats(acks);
  const note = deps.note ?? (() => {});
  return {
    transport: 'whatsapp',
    async start(context: SessionContext): Promise<RunningSession> {
      const { channelId } = context;
      let socket: WaSocket | null = null;
      let attempt = 0;
      let timer: TimerHandle | null = null;
      /** The watchdog of the connection now: its open, then its silence. */
      let watchdog: TimerHandle | null = null;
      /** Runs while the session is not open: past it, the channel shows the session unreachable. */
      let unreachable: TimerHandle | null = null;
      let shownUnreachable = false;
      /** When the session was last known alive: opened, or heard from while open. */
      let aliveAt = timers.now();
      let stopped = false;
      let linked = false;
      /** Whether this run showed a QR: a session restored from its state never does. */
      let showedQr = false;
      let caughtUp = false;
      const judge = new CloseJudge();
      /** Reports the channel could not take yet (it is still syncing): recorded once it is active. */
      let held: PlatformReport[] = [];
      stats.set(channelId, 'connecting');

      const close = () => {
        timers.clear(timer);
        timers.clear(watchdog);
        timer = watchdog = null;
        if (socket) {
          sockets.delete(channelId);
          opened.delete(channelId);
          acks.connectionLost(channelId);
        }
        socket?.end();
        socket = null;
      };
      /** The connection is given up (the library may never report its end) and another made after the backoff. */
      const giveUp = (why: string) => {
        note({ channelId, attempt }, `WhatsApp connection ${why}; reconnecting`);
        close();
        const delayMs = reconnectDelayMs(backoff, attempt++, random);
        // A watchdog firing late is what a process that stalled past its lease sees first: it reconnects only while
        // the session is still its own.
        void stillHeld().then((held) => held && reconnect(delayMs));
      };
      /** Whether this process still holds the session (asked of the database); when not, it stops here at once. */
      const stillHeld = async (): Promise<boolean> => {
        try {
          await withSessionFence(deps.channels.store, context, async () => {});
          return true;
        } catch (err) {
          deps.log(err, 'the WhatsApp session is held by another process now: stopped here');
          stopped = true;
          close();
          return false;
        }
      };
      const watch = (ms: number, why: string) => {
        timers.clear(watchdog);
        watchdog = timers.set(() => {
          watchdog = null;
          giveUp(why);
        }, ms);
      };
      /** Shown active again, only while this process still holds the session (fenced). */
      const restored = () => withSessionFence(deps.channels.store, context, (tx) => sessionRestored(tx, deps.channels, channelId));
      /** Shows the channel's session unreachable (fenced), unless it opened meanwhile. */
      const showUnreachable = () => {
        void withSessionFence(deps.channels.store, context, (tx) => sessionUnreachable(tx, deps.channels, channelId)).then(
          (shown) => {
            if (!shown || stopped) return;
            // It opened while this was recorded: shown active again at once.
            if (socket && sockets.get(channelId) === socket) return void restored().catch(() => {});
            shownUnreachable = true;
            stats.set(channelId, 'unreachable');
            note({ channelId, attempt }, 'WhatsApp session unreachable: its channel shows it until the connection opens');
          },
          (err: unknown) => deps.log(err, 'recording a WhatsApp session unreachable failed'),
        );
      };
      const down = () => {
        if (unreachable || stopped) return;
        // Counted from when it was last heard from: a connection that went silent before it closed used up its share.
        const dueMs = Math.max(0, liveness.unreachableMs - (timers.now() - aliveAt));
        if (dueMs > 0) return void (unreachable = timers.set(showUnreachable, dueMs));
        // Silent for that long already: shown now (a handle with no timer behind it marks it done until it opens).
        unreachable = { timer: null };
        showUnreachable();
      };
      down();
      /** The session is over on WhatsApp's side or the channel's: nobody runs it again until a reinit. */
      const finish = async (why: SessionEnd | null, forget: boolean) => {
        stopped = true;
        close();
        timers.clear(unreachable);
        stats.gone(channelId);
        acks.released(channelId);
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
        let mine: WaSocket | null = null;
        const fresh = await deps.library.open({
          state: context.state,
          wsUrl: deps.wsUrl,
          onStateError: (err) => {
            deps.log(err, 'saving a WhatsApp session state failed after its retries');
            // Its keys could not be kept: the connection goes, so nothing more is received that they would be needed for.
            if (mine && mine === socket && !(err instanceof SessionLeaseLost)) giveUp('could not save its keys');
          },
        });
        mine = fresh;
        if (stopped || context.signal.aborted) return fresh.end();
        socket = fresh;
        opened.set(channelId, fresh);
        watch(liveness.openMs, `did not open within ${liveness.openMs / 1000} s`);
        fresh.onAck((ack) => acks.ack(ack));
        // Answered: an open connection is alive for another `silenceMs` (the keepalive is answered every 10 s).
        fresh.onHeard(() => {
          if (fresh !== socket || !fresh.user() || !linked) return;
          aliveAt = timers.now();
          watch(liveness.silenceMs, `heard nothing for ${liveness.silenceMs / 1000} s`);
        });
        // One update at a time, in WhatsApp's order: a code repeated after a newer one is not a new code.
        fresh.on('connection.update', (update) => {
          updating = updating.then(() => onUpdate(fresh, update)).catch((err: unknown) => deps.log(err, 'a WhatsApp connection update failed'));
        });
        const keep = deps.files?.(channelId, fresh) ?? null;
        fresh.on('messages.upsert', (upsert) => {
          void record(async () => remember(await reportsOfMessages(upsert.messages, keep))).catch(reportsFailed);
          // A customer who writes is likely to write again: their typing is asked for (told to the frames only).
          for (const jid of writersOf(upsert, deps.channels.clock.now().getTime())) subscribePresence(fresh, jid);
        });
        fresh.on('presence.update', (update) => {
          const chat = typingOf(update);
          if (chat) deps.messages()?.typingHeard?.({ channelId, ...chat });
        });
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
        down();
        stats.set(channelId, shownUnreachable ? 'unreachable' : 'connecting');
        if (stopped || context.signal.aborted) return;
        stats.reconnects++;
        timer = timers.set(() => {
          timer = null;
          note({ channelId, attempt }, 'reconnecting the WhatsApp session');
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
        if (u.qr) {
          showedQr = true;
          // Waiting for a scan: the library's own QR timer ends the attempt (408) once its codes run out.
          timers.clear(watchdog);
          watchdog = null;
        }
        if (u.qr && (await sessionQrIssued(deps.channels, context, u.qr, 'whatsapp')) === 'end') return finish(null, true);
        if (u.receivedPendingNotifications) await synced();
        if (u.connection === 'open') {
          attempt = 0;
          aliveAt = timers.now();
          judge.opened();
          timers.clear(unreachable);
          unreachable = null;
          shownUnreachable = false;
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
          stats.set(channelId, 'open');
          watch(liveness.silenceMs, `heard nothing for ${liveness.silenceMs / 1000} s`);
          note({ channelId }, 'WhatsApp connection open');
          // Shown unreachable meanwhile (by this process or the one before it): active again.
          await restored();
          if (caughtUp) await synced();
        }
        if (u.connection === 'close') {
          const code = disconnectCode(u.lastDisconnect?.error);
          // Replaced: most often by this gateway's own process that took the session over; a stale owner stops.
          if (code === WaDisconnect.connectionReplaced && !(await stillHeld())) return;
          const end = judge.closed(code, linked || !showedQr);
          if (end) {
            note({ channelId, code, attempt }, `WhatsApp session ended (${end.why}${end.forget ? ', keys wiped' : ''})`);
            return finish(end.why, end.forget);
          }
          // A restart WhatsApp asks for (right after a scan) is made at once, the first time; asked again before the
          // connection opened, or any other loss, it waits its turn (never a loop).
          const delayMs = code === WaDisconnect.restartRequired && attempt === 0 ? 0 : reconnectDelayMs(backoff, attempt, random);
          note({ channelId, code, attempt, repeated: judge.repeated, delayMs }, code === WaDisconnect.connectionReplaced ? 'WhatsApp connection replaced; reconnecting' : 'WhatsApp connection closed; reconnecting');
          attempt++;
          reconnect(delayMs);
        }
      };

      await connect();
      return {
        async stop() {
          stopped = true;
          close();
          timers.clear(unreachable);
          stats.gone(channelId);
          acks.released(channelId);
          note({ channelId }, 'WhatsApp session stopped here (handed over or the lease lost)');
        },
        async logout() {
          // Let go of first (not ended: the logout goes through it), so the close the logout brings (401) is not
          // taken for a logout on the phone. A session never linked has no device to log out.
          stopped = true;
          const current = socket;
          socket = null;
          close();
          timers.clear(unreachable);
          stats.gone(channelId);
          acks.released(channelId);
          note({ channelId }, 'WhatsApp session logging its device out (channel deleted or reinitialized)');
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
