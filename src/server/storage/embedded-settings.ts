import { PGlite, type PGliteOptions } from '@electric-sql/pglite';

/**
 * How the embedded database is started: PGlite's own start parameters, plus the few that size its memory for a
 * small server. Out of the box PGlite takes PostgreSQL's defaults, made for a server of its own: a 128 MB buffer
 * cache that PGlite's memory holds from the first query on, most of the gateway's idle footprint. What each setting
 * here gives up is in docs/benchmarks.md ("The embedded database's memory").
 *
 * Durability is PGlite's: every commit is written to the data directory's files before the call returns (a
 * killed process loses nothing it committed), and, as PGlite starts PostgreSQL with `-F`, nothing is flushed
 * to the disk itself (its file system layer could not: it has no fsync). A machine that loses power may lose the
 * last commits; a deployment that must survive that runs on PostgreSQL.
 */
export const EMBEDDED_SETTINGS: Readonly<Record<string, string>> = {
  // The database's page cache. Pages beyond it are read again from the system's file cache, 8 kB a call: the
  // send path's pages stay in it; exports and old history read more slowly.
  shared_buffers: '8MB',
  // Sized from shared_buffers by default (1/32): stated so a change of the one does not silently move the other.
  wal_buffers: '512kB',
  // Per session, for temporary tables only, which the gateway does not make.
  temp_buffers: '1MB',
  // One connection: the slots, locks and snapshots PostgreSQL keeps for 100 are dead weight.
  max_connections: '4',
  max_wal_senders: '0',
  max_replication_slots: '0',
};

/** PGlite's start parameters with the gateway's settings after them (a later `-c` wins). */
export function embeddedStartParams(settings: Readonly<Record<string, string>> = EMBEDDED_SETTINGS): string[] {
  return [...PGlite.defaultStartParams, ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`])];
}

/** The options the gateway opens PGlite with. */
export function embeddedOptions(): PGliteOptions {
  return { startParams: embeddedStartParams() };
}
