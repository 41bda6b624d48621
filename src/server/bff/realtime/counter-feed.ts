import type { Server as HttpServer } from 'node:http';
import { Server, type Socket } from 'socket.io';
import {
  CounterConnecting,
  counterFeedPath,
  type CounterError,
  type CounterFeedClientEvents,
  type CounterFeedServerEvents,
  type CounterUpdate,
} from '../../../contract/v3/counter-feed.ts';
import type { EventSink } from '../../core/events/dispatch-event.ts';
import type { EventRecord, Store } from '../../core/ports.ts';
import { unansweredSummary } from '../../core/rights/counters.ts';
import type { CheckedAttempt } from '../deps.ts';
import { guarded, problemsOf, type RealtimeLog } from './frame-messages.ts';

interface FeedData {
  accountId: string;
  userId: string;
  apiKey: string;
  /** The last update sent, as JSON: a recount that finds the same is not sent again. */
  sent: string;
}

type Io = Server<CounterFeedClientEvents, CounterFeedServerEvents, Record<string, never>, FeedData>;
type FeedSocket = Socket<CounterFeedClientEvents, CounterFeedServerEvents, Record<string, never>, FeedData>;

export interface CounterFeedDeps {
  store: Store;
  log: RealtimeLog;
  /** The account whose v3 API key (client token or OAuth access token) this is, or null: a sidecar key is refused, as on GET /v3/unanswered. */
  accountOfKey(apiKey: string): Promise<string | null>;
  /** Keys checked per caller address, counted before the check, as on the HTTP API. */
  failedAuth?: { attempt<T>(address: string, check: () => Promise<T | null>): Promise<CheckedAttempt<T>> } | undefined;
}

/** The socket.io feed of the v3 unanswered counter: a sink of the event stream, served on the gateway's HTTP server. */
export interface CounterFeed extends EventSink {
  attach(server: HttpServer): void;
  close(): Promise<void>;
}

/** The events after which a chat's unanswered count may have changed (core/embedding/unanswered.ts says which). */
const COUNTING = new Set(['message.add', 'message.status_update', 'chat.answered', 'chat.unanswered_update']);

const room = (accountId: string) => `counter-account:${accountId}`;

/**
 * The counter feed at `/ws-counters/`: a client says who it is with `counterConnecting` {type, apiKey, userId}, hears
 * its counter at once, then again each time the event stream changes it. Each process recounts for the clients
 * connected to it (every process follows the stream), so no message goes through Redis. A key revoked meanwhile
 * ends the connection at the next recount.
 */
export function createCounterFeed(deps: CounterFeedDeps): CounterFeed {
  // destroyUpgrade off: the frames' socket.io shares the HTTP server, and each must leave the other's upgrades alone.
  const io: Io = new Server({ path: counterFeedPath, serveClient: false, destroyUpgrade: false });

  const refuse = (socket: FeedSocket, refusal: CounterError) => {
    socket.emit('counterError', refusal);
    socket.disconnect(true);
  };

  const countFor = async (data: Pick<FeedData, 'accountId' | 'userId'>): Promise<CounterUpdate> => {
    const s = await unansweredSummary(deps, data.accountId, data.userId);
    const counter = s.counter;
    return { counter, counterV2: counter, type: counter === 0 ? null : s.type, lastMsgDateTime: s.lastMessageAt?.toISOString() ?? null };
  };

  /** Sends the socket its counter when it differs from the last one sent. */
  const recount = async (socket: FeedSocket) => {
    const update = await countFor(socket.data);
    const json = JSON.stringify(update);
    if (json === socket.data.sent) return;
    socket.data.sent = json;
    socket.emit('counterUpdate', update);
  };

  const hello = async (socket: FeedSocket, hello: CounterConnecting) => {
    if (socket.data.accountId) return; // One identity per connection.
    const check = () => deps.accountOfKey(hello.apiKey);
    const outcome: CheckedAttempt<string> = deps.failedAuth
      ? await deps.failedAuth.attempt(socket.handshake.address, check)
      : await check().then((accountId) => (accountId ? { kind: 'passed', value: accountId } : { kind: 'failed' }));
    if (outcome.kind === 'refused') return refuse(socket, { error: 'TOO_MANY_REQUESTS', description: 'Too many failed authentications from this address' });
    if (outcome.kind === 'failed') return refuse(socket, { error: 'UNAUTHORIZED', description: 'API key not passed or wrong' });
    Object.assign(socket.data, { accountId: outcome.value, userId: hello.userId, apiKey: hello.apiKey, sent: '' });
    await socket.join(room(outcome.value));
    await recount(socket);
  };

  io.on(
    'connection',
    guarded(deps.log, 'counter connection', (socket: FeedSocket) => {
      // Checked against the contract as an HTTP body is, before anything reads it.
      socket.on(
        'counterConnecting',
        guarded(deps.log, 'counterConnecting', (payload: unknown) => {
          const problems = problemsOf(CounterConnecting, payload, 'counterConnecting');
          if (!problems) return hello(socket, payload as CounterConnecting);
          return refuse(socket, { error: 'VALIDATION_ERROR', description: problems.map((p) => `${p.field} ${p.message}`).join('; ') });
        }),
      );
    }),
  );

  /** Recounts for the sockets of each account the batch touched; a socket whose key no longer holds is ended. */
  const consumeBatch = async (events: EventRecord[]) => {
    const accounts = new Set(events.filter((e) => COUNTING.has(e.name)).map((e) => e.accountId));
    for (const accountId of accounts) {
      const sockets = [...(io.of('/').adapter.rooms.get(room(accountId)) ?? [])].map((id) => io.of('/').sockets.get(id)).filter((s) => s !== undefined);
      for (const socket of sockets) {
        if ((await deps.accountOfKey(socket.data.apiKey)) !== accountId) {
          refuse(socket, { error: 'UNAUTHORIZED', description: 'API key not passed or wrong' });
          continue;
        }
        await recount(socket);
      }
    }
  };

  return {
    name: 'v3-counter-feed',
    async consume(events) {
      if (io.of('/').sockets.size === 0) return;
      await consumeBatch(events);
    },
    attach(server) {
      io.attach(server);
    },
    async close() {
      (io.engine as { close?: () => void } | undefined)?.close?.();
      await io.of('/').adapter.close();
    },
  };
}
