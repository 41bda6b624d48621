import { sql, type Kysely } from 'kysely';

/**
 * Dispatching an event marks it dispatched in the same transaction that queues its webhook deliveries, so
 * a dispatcher that dies mid-batch leaves nothing half done for a lease to recover: the lease column goes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table events drop column dispatch_lease_until`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table events add column dispatch_lease_until timestamptz`.execute(db);
}
