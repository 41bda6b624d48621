import pg from 'pg';
import type { Database } from './database.ts';


/** Raised (at commit) by every transaction that records an event: the dispatchers look at once. */
export const EVENTS_RECORDED = 'gateway_events_recorded';

/** Raised (at commit) by every statement that queued webhook deliveries (with their events): the delivery loops look at once. */
export const DELIVERIES_QUEUED = 'gateway_deliveries_queued';

/** Raised (at commit) by every statement or transaction that stored sends: the send loops look at once. */
export const SENDS_ACCEPTED = 'gateway_sends_accepted';

/**
 * Calls `onNotify` whenever a committed transaction raised `channel`, in this process or any other on the
 * same database: PGlite's own LISTEN, or a dedicated connection on PostgreSQL. A dropped connection is
 * opened again; notifications lost meanwhile are the pollers' to find.
 */
export async function listen(
  database: Database,
  channel: string,
  onNotify: () => void,
  onError: (err: unknown) => void,
  /** Notifications raised with this payload are skipped: the store that raised them woke this process already. */
  ownOrigin?: string,
): Promise<{ close(): Promise<void> }> {
  if (database.pglite) {
    const unlisten = await database.pglite.listen(channel, (payload) => {
      if (ownOrigin === undefined || payload !== ownOrigin) onNotify();
    });
    return { close: () => unlisten() };
  }
  if (database.target.kind !== 'postgres') throw new Error('unreachable: database target without a connection');
  const url = database.target.url;
  let closed = false;
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | undefined;
  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: url });
    c.on('notification', (n) => {
      if (ownOrigin === undefined || n.payload !== ownOrigin) onNotify();
    });
    c.on('error', (err) => {
      onError(err);
      void c.end().catch(() => {});
      if (!closed) retry = setTimeout(() => void connect().catch(onError), 1_000);
    });
    await c.connect();
    await c.query(`LISTEN ${channel}`);
    client = c;
    if (closed) await c.end();
    // Whatever was raised while no connection listened.
    else onNotify();
  };
  await connect();
  return {
    close: async () => {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => {});
    },
  };
}
