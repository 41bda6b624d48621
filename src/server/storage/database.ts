import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { migrationProvider } from './migrations/index.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { asDataDirError, checkDataDirRoom } from './data-dir-check.ts';
import { seedFromTemplate } from './database-template.ts';
import { embeddedOptions } from './embedded-settings.ts';
import { PGliteDialect } from './pglite-dialect.ts';
import { forgetFailedFileCreates } from './pglite-file-cache.ts';
import { PreparingClient } from './pg-prepared.ts';
import { databaseAvailability, type Availability, type AvailabilityLog } from './availability.ts';
import type { DatabaseSchema } from './schema.ts';

export type DatabaseTarget =
  | { kind: 'pglite'; dataDir: string | null } // null: in memory (tests)
  | { kind: 'postgres'; url: string };

export interface Database {
  db: Kysely<DatabaseSchema>;
  target: DatabaseTarget;
  /** Set on the embedded database, where pg-boss must share the one connection. */
  pglite: PGlite | null;
  /** Whether the database answers; tells the loops when it is back after an outage. */
  availability: Availability;
  /** Whether the database can serve now: it answers, and (embedded) its data directory takes writes. */
  probe(): Promise<void>;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** Where outages are told (late bound: the logger is made after the database). */
  log?: () => AvailabilityLog | null;
  /** How often an unreachable database is asked again. */
  probeMs?: number;
}

/** A new connection waits this long at most: a database that does not answer (a failover) counts as down. */
const CONNECT_TIMEOUT_MS = 5_000;
/** How often the embedded database's data directory is checked for room and writes while all is well. */
const DATA_DIR_WATCH_MS = 5_000;
/** Readiness and recovery probes give up after this long. */
const PROBE_TIMEOUT_MS = 3_000;

/**
 * Prepared statements get generic plans only. The gateway prepares its statements once per connection (see
 * PreparingClient, pglite-prepared) and writes them so that a plan made without the parameters' values serves
 * them. Left to choose, PostgreSQL makes five custom plans for every statement prepared, and goes on making
 * them for ever for lookups by a list of ids, whose custom plans it costs lower: under the accept load,
 * planning was an eighth of PostgreSQL's statement time, and for the stream read and the channel and customer
 * lookups it cost more than running them.
 */
const PLAN_CACHE_MODE = 'force_generic_plan';

export async function openDatabase(target: DatabaseTarget, options: OpenOptions = {}): Promise<Database> {
  if (target.kind === 'postgres') {
    const pool = new pg.Pool({
      connectionString: target.url,
      max: 10,
      Client: PreparingClient,
      options: `-c plan_cache_mode=${PLAN_CACHE_MODE}`,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      keepAlive: true,
    });
    const db = new Kysely<DatabaseSchema>({ dialect: new PostgresDialect({ pool }) });
    const probe = () => ping(db, PROBE_TIMEOUT_MS);
    const availability = databaseAvailability(probe, options);
    // An idle connection the server dropped (a restart, a failover) is an outage to ride out, not a crash:
    // the pool has let it go already, and the next query opens another.
    const noteFailure = (err: Error) => {
      if (!availability.report(err)) options.log?.()?.warn({ err }, 'a database connection failed');
    };
    pool.on('error', noteFailure);
    // The pool listens to a connection's errors only while it is idle: one that breaks while checked out
    // between two statements (inside a transaction) would otherwise throw from an unheard 'error' event.
    // Its statement under way fails by itself; the pool drops it once it is released.
    pool.on('connect', (client) => client.on('error', noteFailure));
    return {
      db,
      target,
      pglite: null,
      availability,
      probe,
      close: async () => {
        availability.close();
        await db.destroy();
      },
    };
  }
  let pglite: PGlite;
  let unlock = async () => {};
  if (target.dataDir) {
    const dir = target.dataDir;
    await mkdir(dir, { recursive: true }).catch((err: unknown) => {
      throw asDataDirError(dir, err);
    });
    unlock = await lockDataDir(dir).catch((err: unknown) => {
      throw asDataDirError(dir, err);
    });
    try {
      // An empty data directory starts from the installed template rather than initdb, when there is one.
      await seedFromTemplate(join(dir, 'pgdata'));
      pglite = await PGlite.create(join(dir, 'pgdata'), embeddedOptions());
    } catch (err) {
      await unlock().catch(() => {});
      throw asDataDirError(dir, err);
    }
  } else {
    pglite = await PGlite.create(embeddedOptions());
  }
  forgetFailedFileCreates(pglite);
  // Generic plans only, as on PostgreSQL above; here planning is the gateway's own CPU.
  await pglite.exec(`set plan_cache_mode = ${PLAN_CACHE_MODE}`);
  const db = new Kysely<DatabaseSchema>({ dialect: new PGliteDialect(pglite) });
  // A data directory that turned read-only or full is found before the embedded database writes there: a write
  // it cannot make may end the process (PostgreSQL panics when its log or a checkpoint cannot be written).
  const dataDir = target.dataDir;
  // Readiness is a write, not only an answer: a relation file is created and written in the database's own
  // directory (and removed by the rollback), as a table write after an outage would.
  const probe = async () => {
    if (dataDir) await checkDataDirRoom(dataDir);
    await withTimeout(dataDir ? writeProbe(pglite) : pglite.query('select 1').then(() => {}), PROBE_TIMEOUT_MS);
  };
  const availability = databaseAvailability(probe, options);
  const watch = dataDir
    ? setInterval(() => {
        if (availability.up()) checkDataDirRoom(dataDir).catch((err: unknown) => availability.report(err));
      }, DATA_DIR_WATCH_MS).unref()
    : undefined;
  return {
    db,
    target,
    pglite,
    availability,
    probe,
    close: async () => {
      clearInterval(watch);
      availability.close();
      await db.destroy();
      await pglite.close();
      await unlock();
    },
  };
}

/**
 * Whether every migration of the code is recorded, in two small statements. Kysely's migrator first looks for its
 * tables by reading the whole catalog, several times: on the embedded database that alone took seconds of each start.
 */
async function nothingPending(db: Kysely<DatabaseSchema>): Promise<boolean> {
  const { rows } = await sql<{ present: boolean }>`select to_regclass('kysely_migration') is not null as present`.execute(db);
  if (!rows[0]?.present) return false;
  const done = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
  const recorded = new Set(done.rows.map((row) => row.name));
  return Object.keys(await migrationProvider.getMigrations()).every((name) => recorded.has(name));
}

/** Brings the schema up to date; runs at every start, and is a no-op when nothing is pending. */
export async function migrateToLatest(db: Kysely<DatabaseSchema>): Promise<void> {
  if (await nothingPending(db)) return;
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const cause = error instanceof Error ? error : new Error(String(error ?? failed?.migrationName));
    throw new Error(`database migration failed${failed ? ` at ${failed.migrationName}` : ''}: ${cause.message}`, { cause });
  }
}

/** Creates a table in the embedded database's own directory and writes a row to it, then leaves no trace. */
async function writeProbe(pglite: PGlite): Promise<void> {
  await pglite.transaction(async (tx) => {
    await tx.exec('create temporary table gateway_write_probe (written int) on commit drop; insert into gateway_write_probe values (1)');
    await tx.rollback();
  });
}

/** Whether the database answers a trivial query, within `timeoutMs` when given. */
export async function ping(db: Kysely<DatabaseSchema>, timeoutMs?: number): Promise<void> {
  const query = db.selectNoFrom((eb) => eb.val(1).as('ok')).execute();
  await (timeoutMs === undefined ? query : withTimeout(query, timeoutMs));
}

async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`the database did not answer within ${ms} ms`), { code: 'ETIMEDOUT' })), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
