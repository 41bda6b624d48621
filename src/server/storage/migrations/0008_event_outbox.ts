import { sql, type Kysely } from 'kysely';

/**
 * The events table is the dispatch queue (an outbox): an event with no `dispatched_at` is still to be handed
 * to the stream's consumers. A dispatcher leases a batch of them while it works, so that processes share
 * the work, and a process that dies mid-batch leaves it to others when the lease runs out.
 * Webhook deliveries are claimed from their table rather than kicked one job at a time: `kicked_at` goes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table events add column dispatch_lease_until timestamptz`.execute(db);
  await sql`create index events_undispatched_idx on events (position) where dispatched_at is null`.execute(db);
  await sql`alter table webhook_deliveries drop column kicked_at`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhook_deliveries add column kicked_at timestamptz`.execute(db);
  await sql`drop index events_undispatched_idx`.execute(db);
  await sql`alter table events drop column dispatch_lease_until`.execute(db);
}
