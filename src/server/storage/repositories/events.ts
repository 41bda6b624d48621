import { sql, type Kysely, type Selectable } from 'kysely';
import type { EventRecord, EventRepository } from '../../core/ports.ts';
import { queueDeliveriesAndNotify, tellRecorded, type EventsRecorded, type RecordedCounts } from './webhook-fan-out.ts';
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

/** `origin` marks the notifications this repository raises (see `listen`); `recorded` hears of each insert. */
export function eventRepository(db: Kysely<DatabaseSchema>, origin = '', recorded?: EventsRecorded): EventRepository {
  return {
    async insert(events) {
      if (events.length === 0) return;
      // One statement for the batch, webhook deliveries included; rows take their positions in the order of
      // the values.
      const rows = events.map(
        (e) => sql`(${e.id}, ${e.accountId}, ${e.name}, ${e.orderingKey}, ${JSON.stringify(e.payload)}::jsonb, ${e.createdAt}, ${e.dispatchedAt})`,
      );
      const counts = await sql<RecordedCounts>`
        with recorded as (
          insert into events (id, account_id, name, ordering_key, payload, created_at, dispatched_at)
          values ${sql.join(rows)}
          returning *)
        ${queueDeliveriesAndNotify(origin)}`.execute(db);
      tellRecorded(counts.rows, recorded);
    },
    async get(id) {
      const row = await db.selectFrom('events').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toEventRecord(row);
    },
    async takeUndispatched(limit, at) {
      const { rows } = await sql<Selectable<EventsTable>>`
        update events set dispatched_at = ${at}
        where id in (
          select id from events where dispatched_at is null
          order by position limit ${limit}
          for update skip locked)
        returning *`.execute(db);
      return rows.map(toEventRecord).sort((a, b) => a.position! - b.position!);
    },
  };
}
