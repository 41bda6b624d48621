import { randomUUID } from 'node:crypto';
import { io, type Socket } from 'socket.io-client';
import type { ChatType } from '../../contract/channels.ts';
import {
  realtimePath,
  type ClientToServerEvents,
  type HandshakeAuth,
  type Resync,
  type ServerToClientEvents,
  type SessionEnded,
  type StreamEvent,
} from '../../contract/realtime.ts';
import { recordEvent } from '../core/events/record-event.ts';
import type { Clock, EventRecord, Store } from '../core/ports.ts';
import type { Gateway } from '../gateway.ts';

/**
 * A frame's realtime client as the widget runs it: it keeps the position of the last event it saw, sends it
 * on every (re)connection, and drops repeats by id.
 */
export interface FrameClient {
  socket: Socket<ServerToClientEvents, ClientToServerEvents>;
  events: StreamEvent[];
  position: number | undefined;
  resyncs: Resync[];
  ended: SessionEnded[];
  /** Resolves once `done()` holds, checked after every message; rejects after `timeoutMs`. */
  until(done: () => boolean, what: string, timeoutMs?: number): Promise<void>;
  /** Connects (again) and resolves once the catch-up (or resync) for this connection arrived. */
  connect(): Promise<void>;
  close(): void;
}

export function frameClient(baseUrl: string, token: string): FrameClient {
  const seen = new Set<string>();
  const waiters = new Set<() => void>();
  const socket: FrameClient['socket'] = io(baseUrl, {
    path: realtimePath,
    autoConnect: false,
    reconnection: false,
    transports: ['websocket'],
    auth: (cb) => cb({ token, ...(client.position === undefined ? {} : { after: client.position }) } satisfies HandshakeAuth),
  });
  let caughtUp = false;
  const take = (event: StreamEvent) => {
    if (seen.has(event.id)) return;
    seen.add(event.id);
    client.events.push(event);
  };
  const client: FrameClient = {
    socket,
    events: [],
    position: undefined,
    resyncs: [],
    ended: [],
    until(done, what, timeoutMs = 10_000) {
      if (done()) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!done()) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out waiting for ${what}`));
        }, timeoutMs);
        waiters.add(check);
      });
    },
    connect() {
      caughtUp = false;
      socket.connect();
      return new Promise((resolve, reject) => {
        const fail = (err: Error) => {
          socket.off('connect_error', fail);
          reject(err);
        };
        socket.once('connect_error', fail);
        client.until(() => caughtUp, 'the catch-up').then(() => {
          socket.off('connect_error', fail);
          resolve();
        }, reject);
      });
    },
    close() {
      socket.disconnect();
    },
  };
  socket.on('event', (event) => {
    take(event);
    // Until this connection's catch-up arrived, a live event may be ahead of what is still missing.
    if (caughtUp) client.position = Math.max(client.position ?? 0, event.position);
  });
  socket.on('caught_up', ({ events, position }) => {
    events.forEach(take);
    client.position = Math.max(client.position ?? 0, position, ...client.events.map((e) => e.position));
    caughtUp = true;
  });
  socket.on('resync', (signal) => {
    client.resyncs.push(signal);
    client.position = signal.position;
    caughtUp = true;
  });
  socket.on('session_ended', (info) => client.ended.push(info));
  socket.onAny(() => queueMicrotask(() => waiters.forEach((w) => w())));
  socket.on('disconnect', () => queueMicrotask(() => waiters.forEach((w) => w())));
  return client;
}

/** A customer writes in a chat: the event message.add, recorded as the inbound walk records it. */
export function recordInbound(
  deps: { store: Store; clock: Clock },
  accountId: string,
  chat: { chat_type: ChatType; chat_id: string; username?: string; phone?: string },
  text: string,
): Promise<EventRecord> {
  const channelId = '00000000-0000-4000-8000-000000000001';
  return deps.store.transaction((tx) =>
    recordEvent(tx, deps.clock, {
      accountId,
      name: 'message.add',
      orderingKey: `chat:${channelId}:${chat.chat_id}`,
      payload: {
        message_id: randomUUID(),
        channel_id: channelId,
        direction: 'inbound',
        status: 'delivered',
        timestamp: deps.clock.now().getTime(),
        recipient: chat,
        text,
      },
    }),
  );
}

/** Resolves once the gateway's dispatcher has handed every given event to its sinks. */
export async function dispatched(gateway: Pick<Gateway, 'store' | 'streamPassed'>, events: EventRecord[], timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (const event of events) {
    const position = event.position ?? (await gateway.store.events.get(event.id))?.position;
    if (position === undefined) throw new Error(`event ${event.id} is not in the stream`);
    while (!gateway.streamPassed(position)) {
      if (Date.now() > deadline) throw new Error(`event ${event.id} was not dispatched`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }
}
