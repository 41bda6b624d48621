import type { Kysely } from 'kysely';
import type { AccountRecord, AccountRepository } from '../../core/ports.ts';
import type { DatabaseSchema } from '../schema.ts';

export function accountRepository(db: Kysely<DatabaseSchema>): AccountRepository {
  const toRecord = (r: { id: string; name: string; created_at: Date }): AccountRecord => ({
    id: r.id,
    name: r.name,
    createdAt: r.created_at,
  });
  return {
    async insert(a) {
      await db.insertInto('accounts').values({ id: a.id, name: a.name, created_at: a.createdAt }).execute();
    },
    async get(id) {
      const row = await db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toRecord(row);
    },
    async list() {
      return (await db.selectFrom('accounts').selectAll().orderBy('created_at').orderBy('id').execute()).map(toRecord);
    },
    async count() {
      const row = await db.selectFrom('accounts').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}
