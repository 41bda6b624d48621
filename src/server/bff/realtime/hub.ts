import type { Server as HttpServer, IncomingMessage, ServerResponse } from 'node:http';
import type * as RedisAdapter from '@socket.io/redis-adapter';
import type * as IoRedis from 'ioredis';
import type { Redis } from 'ioredis';
import { Server, type Socket } from 'socket.io';
import {
  type ChatTyping,
  realtimeErrors,
  realtimePath,
  type ClientToServerEvents,
  type ServerToClientEvents,
} from '../../../contract/realtime.ts';
import { catchUp, isStreamed, streamEventOf, toStreamEvent } from '../../core/embedding/catch-up.ts';
import type { EmbedSessionRecord, LiveSessions } from '../../core/embedding/ports.ts';
import { chatOfEvent, eventChats, type EventChats } from '../../core/embedding/event-chat.ts';
import { eventAudiences, sessionAudience, sessionAudiences, visibleTo } from '../../core/embedding/scope.ts';
import { eventForRights } from '../../core/rights/events.ts';
import { isRestricted, rightsOf, unrestricted, type FrameRights } from '../../core/rights/visibility.ts';
import type { ChatRecord } from '../../core/messages/ports.ts';
import type { ReportedTyping } from '../../core/messages/typing.ts';
import { authenticateSession, reloadSession } from '../../core/embedding/sessions.ts';
import { packageOnFirstUse } from '../../core/on-first-use.ts';
import { unansweredUpdate } from '../../core/embedding/unanswered.ts';
import { withCaptionOf } from '../../core/embedding/caption-events.ts';
import type { EventSink } from '../../core/events/dispatch-event.ts';
import type { Clock, EventRecord, Store } from '../../core/ports.ts';
import { checkHandshake, guarded, hearSocketErrors, onClientEvent, type ListeningSocket } from './frame-messages.ts';

interface SocketData {
  session: EmbedSessionRecord;
  /** The last position the frame said it saw when it connected, checked against the contract. */
  after: number | null;
  /** The account's rights for the session's user, as they were when the frame connected. */
  rights: FrameRights;
}

// Loaded only when the gateway runs with Redis.
const ioredis = packageOnFirstUse<typeof IoRedis>('ioredis');
const redisAdapter = packageOnFirstUse<typeof RedisAdapter>('@socket.io/redis-adapter');

/**
 * Chat frames whose user is restricted by the account's rights (channels by role, hidden phone numbers) join only
 * this audience and their own: each event is judged, and masked, for each of them rather than sent to a room.
 */
const ruledAudience = (accountId: string) => `account:${accountId}:ruled-chat-frames`;
const isRuled = (data: SocketData) => data.session.kind === 'chats' && isRestricted(data.rights);

type Io = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
type FrameSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

export interface RealtimeHubDeps {
  store: Store;
  clock: Clock;
  /** With Redis, a session ended through any gateway process ends its frames on every process (socket.io's Redis adapter). */
  redisUrl: string | null;
  log: { warn(obj: object, msg: string): void };
  /** How often connections are checked for sessions that expired without renewal. */
  sweepIntervalMs?: number;
}

/** The socket.io side of the frames: a sink of the event stream, and the end of revoked sessions. */
export interface RealtimeHub extends EventSink, LiveSessions {
  /** Serves socket.io on the gateway's HTTP server, at /bff/socket.io. */
  attach(server: HttpServer): void;
  /** Ends this process's connections whose session expired (a renewal in the meantime keeps them). */
  sweep(): Promise<void>;
  /** Cuts every frame's connection (they reconnect by themselves) and lets go of Redis; call before the HTTP server closes. */
  close(): Promise<void>;
  /** Frames connected to this process now. */
  connectedFrames(): number;
  /**
   * A customer is typing: the frames that see the chat are told (`typing`), on every process with Redis. Never stored:
   * a frame that was not connected missed nothing that lasts. Frames under rights hear it when their rights show the chat.
   */
  typing(report: ReportedTyping): Promise<void>;
}

/**
 * The adapter publishes without waiting for the answer (a session ended, an emit to rooms): with Redis away each
 * publish would reject unheard, and an unhandled rejection stops the process. Heard here, a failure is a warning:
 * this process's frames got theirs already, and the other processes' sweep ends revoked sessions' frames anyway.
 * The client reconnects by itself, and the subscriber subscribes again.
 */
function hearPublishFailures(redis: Redis, log: RealtimeHubDeps['log']): Redis {
  const publish = redis.publish.bind(redis) as (...args: unknown[]) => Promise<number>;
  (redis as unknown as { publish: typeof publish }).publish = (...args) => {
    const sent = publish(...args);
    sent.catch((err: unknown) => log.warn({ err }, 'realtime fan-out: publishing through Redis failed'));
    return sent;
  };
  return redis;
}

/**
 * Frames join audiences (socket.io rooms) named by their session's scope; each event is emitted to the
 * audiences that may see it, so a frame never receives what its session may not see. Each process pushes
 * the stream it follows to the frames connected to it; with the Redis adapter, ending sessions reaches the
 * frames of every process. A (re)connecting frame names the last position it saw and first gets what it
 * missed, or a resync signal.
 */
export function createRealtimeHub(deps: RealtimeHubDeps): RealtimeHub {
  const io: Io = new Server({ path: realtimePath, serveClient: false });
  const redis = deps.redisUrl ? new (ioredis().Redis)(deps.redisUrl, { maxRetriesPerRequest: 1 }) : null;
  const redisSub = redis?.duplicate() ?? null;
  for (const client of [redis, redisSub]) client?.on('error', (err) => deps.log.warn({ err }, 'realtime fan-out: Redis error'));
  if (redis && redisSub) io.adapter(redisAdapter().createAdapter(hearPublishFailures(redis, deps.log), redisSub));

  const sendCatchUp = async (socket: FrameSocket, after: number | undefined) => {
    const ruled = isRuled(socket.data) ? socket.data.rights : undefined;
    const result = await catchUp({ eventLog: deps.store.eventLog, chats: deps.store.chats, messages: deps.store.messages }, socket.data.session, after, ruled);
    if (result.kind === 'caught_up') socket.emit('caught_up', { events: result.events, position: result.position });
    else socket.emit('resync', { reason: result.reason, position: result.position });
  };

  /** The handshake's session and rights; an error only when the handshake is malformed or the token refused. */
  const admit = async (socket: FrameSocket): Promise<Error | undefined> => {
    const checked = checkHandshake(socket.handshake.auth);
    if ('refusal' in checked) return checked.refusal;
    const session = await authenticateSession(deps, checked.auth.token);
    if (!session) return Object.assign(new Error(realtimeErrors.unauthorized), { data: { error: realtimeErrors.unauthorized } });
    socket.data.session = session;
    socket.data.after = checked.auth.after ?? null;
    socket.data.rights = session.kind === 'chats' ? await rightsOf(deps.store, session.accountId, session.user?.id ?? null) : unrestricted;
    return undefined;
  };
  io.use((socket, next) => {
    const failed = (err: unknown) => {
      deps.log.warn({ err }, 'realtime handshake failed');
      // A refusal (connect_error) is final for socket.io's client; a failure to read the session (the database
      // coming up or away) is not the frame's fault: cut, it tries again after its backoff wait.
      socket.conn.close();
      next(err instanceof Error ? err : new Error(String(err)));
    };
    guarded(deps.log, 'handshake', () => admit(socket).then(next, failed))();
  });

  // Every listener goes through guarded() (frame-messages.ts): socket.io calls them where a throw would stop the process.
  io.on(
    'connection',
    guarded(deps.log, 'connection', (socket: FrameSocket) => {
      const listening = socket as unknown as ListeningSocket;
      hearSocketErrors(listening, deps.log);
      onClientEvent(listening, 'catch_up', deps.log, (after) => sendCatchUp(socket, after ?? undefined));
      // Joined before the catch-up is read, so nothing recorded in between is missed (repeats are dropped by id).
      const { session } = socket.data;
      const rooms = isRuled(socket.data) ? [sessionAudience(session.id), ruledAudience(session.accountId)] : sessionAudiences(session);
      return Promise.resolve(socket.join(rooms))
        .then(() => sendCatchUp(socket, socket.data.after ?? undefined))
        .catch((err: unknown) => {
          deps.log.warn({ err }, 'realtime connection setup failed');
          // Cut rather than ended (see close()): the frame tries again after its backoff wait and catches up then.
          socket.conn.close();
        });
    }),
  );

  let sweeping: NodeJS.Timeout | null = setInterval(() => {
    hub.sweep().catch((err: unknown) => deps.log.warn({ err }, 'realtime session sweep failed'));
  }, deps.sweepIntervalMs ?? 30_000);
  sweeping.unref();

  /** Pushes one event, and the unanswered count it may have changed, to the frames allowed to see it. */
  const push = async (recorded: EventRecord, chats: EventChats) => {
    if (!isStreamed(recorded.name)) return;
    const eventChat = await chatOfEvent(deps.store.chats, recorded, chats.identities);
    const audiences = eventAudiences(recorded, eventChat);
    if (audiences.length === 0) return;
    // Looked up only for an event some frame here will get: the words of a file name it (`caption_of`).
    const event = await withCaptionOf(deps.store.messages, recorded);
    // Dispatched events come from the table, with their stream position. Every process follows the stream
    // itself, so each pushes to the frames connected to it, not through Redis to everyone's.
    io.local.to(audiences).emit('event', toStreamEvent(event));
    const update = await unansweredUpdate(deps.store.chats, event, chats.records);
    const updateEvent = update && { ...event, name: update.event.name, payload: update.event.payload };
    if (update && updateEvent) io.local.to(eventAudiences(updateEvent, update.chat)).emit('event', update.event);
    await pushRuled(event, eventChat, chats.records, update && updateEvent ? { as: updateEvent, stream: update.event, chat: update.chat } : null);
  };

  /** The frames under rights hear what their scope and their rights let them, masked where phones are hidden. */
  const pushRuled = async (
    event: EventRecord,
    chat: Parameters<typeof eventAudiences>[1],
    records: Map<string, ChatRecord | null>,
    update: { as: EventRecord; stream: ReturnType<typeof toStreamEvent>; chat: Parameters<typeof eventAudiences>[1] } | null,
  ) => {
    const sockets = await io.local.in(ruledAudience(event.accountId)).fetchSockets();
    if (sockets.length === 0) return;
    for (const socket of sockets) {
      const { session, rights } = socket.data;
      if (visibleTo(session, event, chat)) {
        const shown = await eventForRights(deps.store.chats, rights, event, records);
        if (shown) socket.emit('event', toStreamEvent(shown));
      }
      if (update && visibleTo(session, update.as, update.chat)) {
        const shown = await eventForRights(deps.store.chats, rights, { ...update.stream, accountId: event.accountId }, records);
        if (shown) socket.emit('event', streamEventOf(shown));
      }
    }
  };

  const hub: RealtimeHub = {
    name: 'realtime',
    async consume(events) {
      const streamed = events.filter((e) => isStreamed(e.name));
      // With no frame connected to this process, nobody would receive a push from it.
      if (streamed.length === 0 || io.of('/').sockets.size === 0) return;
      // One read of the batch's chats instead of two per event.
      const chats = await eventChats(deps.store.chats, streamed);
      for (const event of streamed) await push(event, chats);
    },
    async end(sessionIds) {
      if (sessionIds.length === 0) return;
      const audiences = sessionIds.map(sessionAudience);
      io.to(audiences).emit('session_ended', { reason: 'revoked' });
      // A server-side disconnect: the client does not reconnect by itself.
      io.in(audiences).disconnectSockets(false);
    },
    attach(server) {
      io.attach(server);
      // socket.io answers its own HTTP requests (long-polling, handshake errors) before Fastify sees them: they get
      // the headers every other answer gets. Set before socket.io writes its head, which keeps them.
      const handlers = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
      server.removeAllListeners('request');
      server.on('request', (req: IncomingMessage, res: ServerResponse) => {
        if (req.url?.startsWith(realtimePath)) {
          res.setHeader('X-Content-Type-Options', 'nosniff');
          res.setHeader('Content-Security-Policy', "frame-ancestors 'none'");
          res.setHeader('X-Frame-Options', 'DENY');
          res.setHeader('Referrer-Policy', 'no-referrer');
        }
        for (const handler of handlers) handler.call(server, req, res);
      });
    },
    connectedFrames: () => io.of('/').sockets.size,
    async typing(report) {
      const channel = await deps.store.channels.getById(report.channelId);
      const chat = channel && (await deps.store.chats.findByMessengerId(channel.id, report.chatType, report.chatId));
      if (!channel || !chat) return;
      const shown: ChatTyping = {
        channel_id: channel.id,
        chat_ref: chat.id,
        chat_type: chat.chatType,
        chat_id: chat.chatId,
        at: deps.clock.now().toISOString(),
        ...(report.stopped ? { stopped: true as const } : {}),
      };
      const event = { accountId: channel.accountId, name: 'chat.typing', payload: shown };
      const identity = { chat_type: chat.chatType, chat_id: chat.chatId, username: chat.username, phone: chat.phone };
      io.to(eventAudiences(event, identity)).emit('typing', shown);
      for (const socket of await io.local.in(ruledAudience(channel.accountId)).fetchSockets()) {
        const { session, rights } = socket.data;
        if (visibleTo(session, event, identity) && (await eventForRights(deps.store.chats, rights, { ...event, payload: { channel_id: channel.id } }))) {
          // The chat is named by its ref alone: a user who sees no phone numbers is not shown one here.
          socket.emit('typing', { ...shown, chat_id: null });
        }
      }
    },
    async sweep() {
      const now = deps.clock.now();
      for (const socket of io.of('/').sockets.values()) {
        if (socket.data.session.expiresAt > now) continue;
        const fresh = await reloadSession(deps, socket.data.session.id);
        if (fresh) {
          socket.data.session = fresh;
        } else {
          socket.emit('session_ended', { reason: 'expired' });
          socket.disconnect(false);
        }
      }
    },
    async close() {
      if (sweeping) clearInterval(sweeping);
      sweeping = null;
      // The connections are cut, not ended: a frame told `disconnect` by the server would not reconnect by itself
      // (socket.io's "io server disconnect"), and would stay offline after a restart or a deploy. Cut, it retries
      // until this gateway, or another one, answers, and catches up from its position.
      // Not io.close(): it would also close the HTTP server, which Fastify closes itself.
      (io.engine as { close?: () => void } | undefined)?.close?.();
      await io.of('/').adapter.close();
      await Promise.all([redis, redisSub].map((c) => c?.quit().catch(() => c.disconnect())));
    },
  };
  return hub;
}
