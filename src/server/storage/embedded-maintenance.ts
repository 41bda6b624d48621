import { sql } from 'kysely';
import type { Database } from './database.ts';

interface TableActivity {
  schemaname: string;
  relname: string;
  n_live_tup: string | number;
  n_dead_tup: string | number;
  n_mod_since_analyze: string | number;
}

/** What one round did, for tests and logs. */
export interface MaintenanceRound {
  vacuumed: string[];
  analyzed: string[];
}

/**
 * The embedded database runs without PostgreSQL's background workers, so nothing vacuums or analyzes it:
 * rows that the queues update pile up as dead tuples that every index scan steps over, and the planner,
 * without statistics, guesses. This does what autovacuum would, with its default thresholds: a table with
 * more dead rows than 50 + 20% of its live ones is vacuumed, one changed by more than 50 + 10% is analyzed.
 */
export async function maintainEmbedded(database: Database): Promise<MaintenanceRound> {
  const { rows } = await sql<TableActivity>`
    select schemaname, relname, n_live_tup, n_dead_tup, n_mod_since_analyze from pg_stat_user_tables`.execute(database.db);
  const round: MaintenanceRound = { vacuumed: [], analyzed: [] };
  for (const t of rows) {
    const live = Number(t.n_live_tup);
    const vacuum = Number(t.n_dead_tup) > 50 + 0.2 * live;
    const analyze = Number(t.n_mod_since_analyze) > 50 + 0.1 * live;
    if (!vacuum && !analyze) continue;
    const table = sql.id(t.schemaname, t.relname);
    // One table at a time: each holds the single connection only briefly.
    await sql`${sql.raw(vacuum ? 'vacuum (analyze)' : 'analyze')} ${table}`.execute(database.db);
    const name = t.schemaname === 'public' ? t.relname : `${t.schemaname}.${t.relname}`;
    if (vacuum) round.vacuumed.push(name);
    round.analyzed.push(name);
  }
  return round;
}

/** Runs `maintainEmbedded` every `intervalMs` on an embedded database (a no-op on PostgreSQL, which has autovacuum). */
export function startEmbeddedMaintenance(database: Database, intervalMs: number, onError: (err: unknown) => void): { stop(): Promise<void> } {
  if (!database.pglite) return { stop: async () => {} };
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    running ??= maintainEmbedded(database)
      .catch(onError)
      .finally(() => {
        running = null;
      });
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
