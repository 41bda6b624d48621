import { PgBoss, fromKysely, fromPglite } from 'pg-boss';
import type { Transaction } from 'kysely';
import type { JobOptions, JobQueue } from '../core/ports.ts';
import type { Database } from '../storage/database.ts';
import type { DatabaseSchema } from '../storage/schema.ts';
import type { TransactionalJobs } from '../storage/store.ts';
import { jobNames, queueOptions } from './queues.ts';

/** pg-boss on the same database as the state: the embedded PGlite instance, or its own pool on PostgreSQL. */
export function createBoss(database: Database): PgBoss {
  // Jobs of a process that died are found by their stopped heartbeat within ~10 s, not the default minute.
  const common = { useListenNotify: true, schema: 'pgboss', superviseIntervalSeconds: 10 } as const;
  if (database.pglite) {
    return new PgBoss({ ...common, db: fromPglite(database.pglite), backend: 'pglite' });
  }
  if (database.target.kind !== 'postgres') throw new Error('unreachable: database target without a connection');
  return new PgBoss({ ...common, connectionString: database.target.url, max: 5 });
}

export async function createQueues(boss: PgBoss): Promise<void> {
  for (const name of jobNames) {
    await boss.createQueue(name, queueOptions[name]);
  }
}

/** Our job options in pg-boss's terms. */
function bossOptions(options: JobOptions) {
  const { group, delaySeconds, ...rest } = options;
  return {
    ...rest,
    ...(group ? { group: { id: group } } : {}),
    ...(delaySeconds ? { startAfter: Math.ceil(delaySeconds) } : {}),
  };
}

/** A job queue whose sends run on the given transaction, so they commit or roll back with it. */
export const transactionalJobs =
  (boss: PgBoss): TransactionalJobs =>
  (trx: Transaction<DatabaseSchema>): JobQueue => ({
    async enqueue(name, payload, options = {}) {
      await boss.send(name, payload, { ...bossOptions(options), db: fromKysely(trx) });
    },
  });
