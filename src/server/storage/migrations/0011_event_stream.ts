import { sql, type Kysely } from 'kysely';

/**
 * Events are no longer marked dispatched: each process follows the table by position and keeps its place in
 * memory (see core/events/stream-tail.ts). Recording an event is its only write, so the table is insert-only
 * and its pages are filled whole again. Older events are not handed to anyone: a process starts at the head.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index events_position_idx on events (position)`.execute(db);
  await sql`drop index events_undispatched_idx`.execute(db);
  await sql`alter table events drop column dispatched_at`.execute(db);
  await sql`alter table events reset (fillfactor)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table events set (fillfactor = 80)`.execute(db);
  // What is in the table now was recorded under the stream: none of it is waiting for a dispatch.
  await sql`alter table events add column dispatched_at timestamptz`.execute(db);
  await sql`update events set dispatched_at = now()`.execute(db);
  await sql`create index events_undispatched_idx on events (position) where dispatched_at is null`.execute(db);
  await sql`drop index events_position_idx`.execute(db);
}
