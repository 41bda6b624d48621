import { sql } from 'kysely';
import pg from 'pg';
import type { Database } from './database.ts';

/** Announced after commits that recorded events: the dispatchers look at once. */
export const EVENTS_RECORDED = 'gateway_events_recorded';

/** Announced after commits that queued webhook deliveries (with their events): the delivery loops look at once. */
export const DELIVERIES_QUEUED = 'gateway_deliveries_queued';

/** Announced after commits that stored sends: the send loops look at once. */
export const SENDS_ACCEPTED = 'gateway_sends_accepted';

/** Raised by a process letting sessions go (it is stopping): the other processes' session runners take them at once. */
export const SESSIONS_RELEASED = 'gateway_sessions_released';

export type Channel = typeof EVENTS_RECORDED | typeof DELIVERIES_QUEUED | typeof SENDS_ACCEPTED | typeof SESSIONS_RELEASED;

export interface Announcer {
  /** Something committed that the other processes' loops of `channel` should look at. */
  announce(channel: Channel): void;
  /** Sends nothing more. */
  close(): void;
}

/** The timers an announcer waits with (a test drives them by hand). */
export interface AnnouncerTimers {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: AnnouncerTimers = {
  now: () => performance.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * Sends announcements of a channel at most once per `gapMs`, one at a time: those made while one is waiting
 * or on its way go out together as the next. Every announcement is followed by a send that starts after it;
 * a send that fails is reported, and the next announcement tries again.
 */
export function coalescedAnnouncer(
  send: (channel: Channel) => Promise<void>,
  gapMs: number,
  onError: (err: unknown) => void,
  timers: AnnouncerTimers = realTimers,
): Announcer {
  const channels = new Map<Channel, { last: number; timer: unknown; sending: boolean; again: boolean }>();
  let closed = false;

  const announce = (channel: Channel) => {
    if (closed) return;
    let state = channels.get(channel);
    if (!state) channels.set(channel, (state = { last: -Infinity, timer: null, sending: false, again: false }));
    if (state.sending) {
      state.again = true;
      return;
    }
    if (state.timer !== null) return;
    const s = state;
    s.timer = timers.setTimeout(() => {
      s.timer = null;
      s.sending = true;
      s.last = timers.now();
      void send(channel)
        .catch(onError)
        .finally(() => {
          s.sending = false;
          if (!s.again) return;
          s.again = false;
          announce(channel);
        });
    }, Math.max(0, s.last + gapMs - timers.now()));
  };

  return {
    announce,
    close() {
      closed = true;
      for (const state of channels.values()) if (state.timer !== null) timers.clearTimeout(state.timer);
    },
  };
}

/**
 * Tells the other gateway processes on the database that this one committed work for them (their `listen`
 * wakes their loops; this process wakes its own directly). The NOTIFY goes after the commit, in a statement
 * of its own: inside the work's transaction it would make that commit queue for the lock that every notifying
 * commit of the server takes in turn, and under load the accepts and settlements waited on one another there.
 * Announcements of a channel within `gapMs` of its last one go out as one. The embedded database belongs to
 * one process, so there it sends nothing. One lost with a crash right after its commit is the pollers' to find.
 */
export function announcer(database: Database, origin: string, onError: (err: unknown) => void, gapMs = 20): Announcer {
  if (database.pglite) return { announce: () => {}, close: () => {} };
  return coalescedAnnouncer(
    async (channel) => {
      await sql`select pg_notify(${channel}, ${origin})`.execute(database.db);
    },
    gapMs,
    onError,
  );
}

/** Waits between attempts to open a listening connection again: doubling from 250 ms, at most 5 s. */
const relistenDelayMs = (failures: number) => Math.min(250 * 2 ** failures, 5_000);

/**
 * Calls `onNotify` whenever another process on the same PostgreSQL database announced `channel`, on a
 * dedicated connection. A dropped connection is opened again (backing off while the database is away, at
 * once when the process sees it back) and LISTENs again; notifications lost meanwhile are the pollers' to
 * find, and the loop is woken once the connection listens again. The embedded database belongs to one
 * process: nobody else can announce anything there.
 */
export async function listen(
  database: Database,
  channel: Channel,
  onNotify: () => void,
  onError: (err: unknown) => void,
  /** Notifications raised with this payload are skipped: the store that raised them woke this process already. */
  ownOrigin?: string,
): Promise<{ close(): Promise<void> }> {
  if (database.pglite) return { close: async () => {} };
  if (database.target.kind !== 'postgres') throw new Error('unreachable: database target without a connection');
  const url = database.target.url;
  let closed = false;
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | undefined;
  let failures = 0;
  let connecting = false;

  const reconnectSoon = () => {
    if (closed || connecting || client || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect().catch(() => {});
    }, relistenDelayMs(failures));
  };

  const connect = async (): Promise<void> => {
    if (closed || connecting || client) return;
    connecting = true;
    const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000, keepAlive: true });
    let lost = false;
    const drop = (err: unknown) => {
      if (lost) return;
      lost = true;
      if (client === c) client = null;
      void c.end().catch(() => {});
      if (closed) return;
      if (!database.availability.report(err)) onError(err);
      reconnectSoon();
    };
    c.on('notification', (n) => {
      if (ownOrigin === undefined || n.payload !== ownOrigin) onNotify();
    });
    c.on('error', drop);
    c.on('end', () => drop(new Error('Connection terminated: the listening connection ended')));
    try {
      await c.connect();
      await c.query(`LISTEN ${channel}`);
    } catch (err) {
      connecting = false;
      failures++;
      drop(err);
      throw err;
    }
    connecting = false;
    failures = 0;
    if (closed || lost) {
      await c.end().catch(() => {});
      return;
    }
    client = c;
    // Whatever was raised while no connection listened.
    onNotify();
  };
  // The database back: listen again now rather than at the end of the backoff.
  database.availability.onRecovered(() => {
    clearTimeout(retry);
    retry = undefined;
    void connect().catch(() => {});
  });
  await connect();
  return {
    close: async () => {
      closed = true;
      clearTimeout(retry);
      const c = client;
      client = null;
      await c?.end().catch(() => {});
    },
  };
}
