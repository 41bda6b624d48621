import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../schema.ts';

/** Runs `work` in a transaction of its own, or in the caller's when the repository is bound to one. */
export function inOwnTransaction<T>(db: Kysely<DatabaseSchema>, work: (trx: Kysely<DatabaseSchema>) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}
