import { sql, type Kysely } from 'kysely';

/**
 * An event is keyed by its position in the stream rather than by its id: every event wrote an entry into the
 * index of its id (the primary key) and another into the index of its position, two per event and four per
 * message sent (`sent` and `delivered`), though nothing looks an event up by its id but the webhook deliveries,
 * and each delivery holds its event's position already (`seq`, its place in the lane, which is the position its
 * event took). The position's index becomes the primary key; the id stays, unindexed, as what a CRM knows the
 * event by. The deliveries' foreign key to the id goes with the id's index: it cascaded nothing (events are pruned
 * only once no delivery refers to them) and checked each delivery's event, which the same statement had just
 * recorded.
 *
 * Deliveries queued before their lanes were ordered by position may hold a `seq` of the older numbering: they are
 * renumbered with their event's position first, while the id's index still finds the events. Built inside the
 * migration's transaction, so writes to events wait while the primary key is built.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    update webhook_deliveries d set seq = e.position
    from events e
    where e.id = d.event_id and d.seq <> e.position`.execute(db);
  await sql`alter table webhook_deliveries drop constraint if exists webhook_deliveries_event_id_fkey`.execute(db);
  await sql`alter table events drop constraint events_pkey`.execute(db);
  await sql`drop index if exists events_position_idx`.execute(db);
  await sql`alter table events add constraint events_pkey primary key (position)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table events drop constraint events_pkey`.execute(db);
  await sql`create index events_position_idx on events (position)`.execute(db);
  await sql`alter table events add constraint events_pkey primary key (id)`.execute(db);
  await sql`
    alter table webhook_deliveries add constraint webhook_deliveries_event_id_fkey
    foreign key (event_id) references events (id) on delete cascade`.execute(db);
}
