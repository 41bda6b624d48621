import { io, type Socket } from 'socket.io-client';
import {
  realtimeErrors,
  realtimePath,
  type ClientToServerEvents,
  type HandshakeAuth,
  type Resync,
  type ServerToClientEvents,
  type SessionEnded,
  type StreamEvent,
} from '../../contract/realtime.ts';
import { EventStream } from './event-stream.ts';

export type RealtimeSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

export interface RealtimeOptions {
  /** The current session token (it is read again on every reconnection). */
  token(): string | null;
  /** Each event once, whether pushed live or replayed after a reconnection. */
  onEvent(event: StreamEvent): void;
  /** The frame missed too much: refetch what it shows. */
  onResync(signal: Resync): void;
  onSessionEnded(info: SessionEnded): void;
  /** Defaults to the page's own origin. */
  url?: string;
  /** For tests: builds the socket. */
  connect?: (url: string, options: Parameters<typeof io>[1]) => RealtimeSocket;
}

/**
 * How the frame retries a lost connection (socket.io's backoff, spelled out): the first retry after 0.5 s, each
 * wait doubling up to 3 s (socket.io's defaults: 1 s up to 5 s), each drawn within ±50 % so that the frames of a
 * restarted gateway do not all come back at once. A frame is thus back at most 3 s after its gateway answers again
 * (plus one handshake and one catch-up read), which bounds how long an open chat can miss a new message.
 */
export const reconnection = { reconnectionDelay: 500, reconnectionDelayMax: 3_000, randomizationFactor: 0.5 } as const;

/**
 * The frame's realtime connection: socket.io at /bff/socket.io with the session token in the handshake (no
 * cookies), reconnecting by itself and resuming from the last position it saw, so nothing is silently missed.
 */
export function connectRealtime(options: RealtimeOptions): { socket: RealtimeSocket; stream: EventStream; close(): void } {
  const stream = new EventStream();
  const socket = (options.connect ?? io)(options.url ?? globalThis.location.origin, {
    path: realtimePath,
    transports: ['websocket', 'polling'],
    withCredentials: false,
    // Retried for as long as the frame is open: a gateway that stops cuts the connections rather than ending them.
    reconnection: true,
    ...reconnection,
    auth: (cb) => {
      stream.connecting();
      const after = stream.position;
      cb({ token: options.token() ?? '', ...(after === undefined ? {} : { after }) } satisfies HandshakeAuth);
    },
  });
  socket.on('event', (event) => {
    if (stream.live(event)) options.onEvent(event);
  });
  socket.on('caught_up', (batch) => stream.caughtUp(batch).forEach(options.onEvent));
  socket.on('resync', (signal) => {
    stream.resync(signal);
    options.onResync(signal);
  });
  socket.on('session_ended', options.onSessionEnded);
  // A refused token is final: socket.io's client does not retry a refusal (`active` false), and the frame would
  // otherwise say "reconnecting" for good. The gateway refuses only a session that is over; anything else it cuts.
  socket.on('connect_error', (err) => {
    const refused = (err as Error & { data?: { error?: string } }).data?.error === realtimeErrors.unauthorized;
    if (refused && !socket.active) options.onSessionEnded({ reason: 'expired' });
  });
  return { socket, stream, close: () => socket.disconnect() };
}
