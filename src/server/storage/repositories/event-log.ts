import { sql, type Kysely } from 'kysely';
import type { EventLogRepository } from '../../core/embedding/ports.ts';
import type { DatabaseSchema } from '../schema.ts';
import { toEventRecord } from './events.ts';

export function eventLogRepository(db: Kysely<DatabaseSchema>): EventLogRepository {
  return {
    async head(accountId) {
      const row = await db
        .selectFrom('events')
        .select(sql<string | number | null>`max(position)`.as('head'))
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      return Number(row?.head ?? 0);
    },
    async at(accountId, position) {
      const row = await db.selectFrom('events').selectAll().where('account_id', '=', accountId).where('position', '=', position).executeTakeFirst();
      return row && toEventRecord(row);
    },
    async since(accountId, { after, overlapFrom, limit }) {
      const rows = await db
        .selectFrom('events')
        .selectAll()
        .where('account_id', '=', accountId)
        .where((eb) => eb.or([eb('position', '>', after), eb('created_at', '>=', overlapFrom)]))
        .orderBy('position')
        .limit(limit)
        .execute();
      return rows.map(toEventRecord);
    },
  };
}
