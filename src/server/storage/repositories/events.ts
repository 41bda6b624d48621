import type { Kysely, Selectable } from 'kysely';
import type { EventRecord, EventRepository } from '../../core/ports.ts';
import type { DatabaseSchema, EventsTable } from '../schema.ts';

export const toEventRecord = (r: Selectable<EventsTable>): EventRecord => ({
  id: r.id,
  accountId: r.account_id,
  name: r.name,
  orderingKey: r.ordering_key,
  payload: r.payload,
  createdAt: r.created_at,
  dispatchedAt: r.dispatched_at,
  position: Number(r.position),
});

export function eventRepository(db: Kysely<DatabaseSchema>): EventRepository {
  return {
    async insert(e) {
      await db
        .insertInto('events')
        .values({
          id: e.id,
          account_id: e.accountId,
          name: e.name,
          ordering_key: e.orderingKey,
          payload: JSON.stringify(e.payload),
          created_at: e.createdAt,
          dispatched_at: e.dispatchedAt,
        })
        .execute();
    },
    async get(id) {
      const row = await db.selectFrom('events').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toEventRecord(row);
    },
    async getMany(ids) {
      if (ids.length === 0) return [];
      const rows = await db.selectFrom('events').selectAll().where('id', 'in', ids).orderBy('position').execute();
      return rows.map(toEventRecord);
    },
    async markDispatched(ids, at) {
      if (ids.length === 0) return;
      await db.updateTable('events').set({ dispatched_at: at }).where('id', 'in', ids).where('dispatched_at', 'is', null).execute();
    },
  };
}
