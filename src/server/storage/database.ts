import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { migrationProvider } from './migrations/index.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { seedFromTemplate } from './database-template.ts';
import { PGliteDialect } from './pglite-dialect.ts';
import { PreparingClient } from './pg-prepared.ts';
import type { DatabaseSchema } from './schema.ts';

export type DatabaseTarget =
  | { kind: 'pglite'; dataDir: string | null } // null: in memory (tests)
  | { kind: 'postgres'; url: string };

export interface Database {
  db: Kysely<DatabaseSchema>;
  target: DatabaseTarget;
  /** Set on the embedded database, where pg-boss must share the one connection. */
  pglite: PGlite | null;
  close(): Promise<void>;
}

/**
 * Prepared statements get generic plans only. The gateway prepares its statements once per connection (see
 * PreparingClient, pglite-prepared) and writes them so that a plan made without the parameters' values serves
 * them. Left to choose, PostgreSQL makes five custom plans for every statement prepared, and goes on making
 * them for ever for lookups by a list of ids, whose custom plans it costs lower: under the accept load,
 * planning was an eighth of PostgreSQL's statement time, and for the stream read and the channel and customer
 * lookups it cost more than running them.
 */
const PLAN_CACHE_MODE = 'force_generic_plan';

export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  if (target.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: target.url, max: 10, Client: PreparingClient, options: `-c plan_cache_mode=${PLAN_CACHE_MODE}` });
    const db = new Kysely<DatabaseSchema>({ dialect: new PostgresDialect({ pool }) });
    return { db, target, pglite: null, close: () => db.destroy() };
  }
  let pglite: PGlite;
  let unlock = async () => {};
  if (target.dataDir) {
    await mkdir(target.dataDir, { recursive: true });
    unlock = await lockDataDir(target.dataDir);
    try {
      // An empty data directory starts from the installed template rather than initdb, when there is one.
      await seedFromTemplate(join(target.dataDir, 'pgdata'));
      pglite = await PGlite.create(join(target.dataDir, 'pgdata'));
    } catch (err) {
      await unlock();
      throw err;
    }
  } else {
    pglite = await PGlite.create();
  }
  // Generic plans only, as on PostgreSQL above; here planning is the gateway's own CPU.
  await pglite.exec(`set plan_cache_mode = ${PLAN_CACHE_MODE}`);
  const db = new Kysely<DatabaseSchema>({ dialect: new PGliteDialect(pglite) });
  return {
    db,
    target,
    pglite,
    close: async () => {
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

export async function ping(db: Kysely<DatabaseSchema>): Promise<void> {
  await db.selectNoFrom((eb) => eb.val(1).as('ok')).execute();
}
