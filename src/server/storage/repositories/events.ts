import { sql, type Kysely, type Selectable } from 'kysely';
import type { EventRecord, EventRepository } from '../../core/ports.ts';
import { queueDeliveries, tellRecorded, type EventsRecorded, type RecordedCounts } from './webhook-fan-out.ts';
import type { DatabaseSchema, EventsTable } from '../schema.ts';
import { fixedStatement } from './fixed-statement.ts';
import { jsonRows } from './json-rows.ts';

export const toEventRecord = (r: Selectable<EventsTable>): EventRecord => ({
  id: r.id,
  accountId: r.account_id,
  name: r.name,
  orderingKey: r.ordering_key,
  payload: r.payload,
  createdAt: r.created_at,
  position: Number(r.position),
});

/** An event to insert, with its place in the batch (the order its position follows). */
const eventColumns = { ord: 'int', id: 'uuid', account_id: 'uuid', name: 'text', ordering_key: 'text', payload: 'jsonb', created_at: 'timestamptz' };

/** Events with their webhook deliveries, in one statement; every state change records its events through it. */
const insertStatement = fixedStatement(
  (rows) => sql<RecordedCounts>`
    with recorded as (
      insert into events (id, account_id, name, ordering_key, payload, created_at)
      select e.id, e.account_id, e.name, e.ordering_key, e.payload, e.created_at from ${jsonRows('e', eventColumns, rows)} order by e.ord
      returning *)
    ${queueDeliveries()}`,
);

/** The stream after a position, and the holes it left behind (see `readStream`). */
const streamStatement = fixedStatement(
  (after, limit, holes) => sql<Selectable<EventsTable>>`
    (select * from events where position > ${after} order by position limit ${limit})
    union all
    (select * from events where position = any(${holes}::bigint[]) and position <= ${after})
    order by position`,
);

/**
 * The oldest events recorded before `before` that no webhook delivery refers to any more (the delivery log's
 * retention removes finished deliveries first; an open one, or one still in the log that can be queued again,
 * keeps its event), skipping any another process is deleting. The walk by position stops at the first event
 * recorded since `before`, so a pass that has caught up reads no newer events.
 */
const pruneStatement = (db: Kysely<DatabaseSchema>, before: Date, limit: number) =>
  sql`
    delete from events where position in (
      select e.position from events e
      where e.created_at < ${before}
        and e.position < coalesce((select position from events where created_at >= ${before} order by position limit 1), 9223372036854775807)
        and not exists (select 1 from webhook_deliveries d where d.event_id = e.id)
      order by e.position limit ${limit}
      for update skip locked)`.execute(db);

/** `recorded` hears of each insert, before its transaction commits. */
export function eventRepository(db: Kysely<DatabaseSchema>, recorded?: EventsRecorded): EventRepository {
  return {
    async insert(events) {
      if (events.length === 0) return;
      // One statement for the batch, webhook deliveries included; rows take their positions in the order given.
      const rows = events.map((e, ord) => ({
        ord,
        id: e.id,
        account_id: e.accountId,
        name: e.name,
        ordering_key: e.orderingKey,
        payload: e.payload,
        created_at: e.createdAt,
      }));
      const counts = await insertStatement(db, JSON.stringify(rows));
      tellRecorded(counts.rows, recorded);
    },
    async get(id) {
      // Not indexed (events are keyed by position, migration 0034): for tests and diagnostics, not a hot path.
      const row = await db.selectFrom('events').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toEventRecord(row);
    },
    async readStream(after, holes, limit) {
      // The holes are few and short-lived (transactions that had not committed when the tail read past them).
      const { rows } = await streamStatement(db, after, limit, `{${holes.join(',')}}`);
      return rows.map(toEventRecord);
    },
    async streamHead() {
      const { rows } = await sql<{ head: string | null }>`select max(position) as head from events`.execute(db);
      return Number(rows[0]?.head ?? 0);
    },
    async prune(before, limit) {
      const result = await pruneStatement(db, before, limit);
      return Number(result.numAffectedRows ?? 0n);
    },
  };
}
