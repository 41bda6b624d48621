import { sql, type Kysely } from 'kysely';

/**
 * The index of due deliveries covered every open one (`pending` or `sending`), as the open-lane index does,
 * so the planner could read a lane's head through either. With statistics taken while the queue was empty
 * (ANALYZE runs whenever autovacuum sees fit), it chose this smaller one and sorted: every probe of the
 * claim's skip scan then read every open delivery. Measured on a backlog of 3,000 over 100 lanes: 37,875
 * buffers and 149 ms per claim, against 1,693 and 3 ms through the lane index. Indexing only what it serves,
 * retries waiting in `pending` (the idle loop's next wake-up), it can no longer stand in for the lane index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop index webhook_deliveries_open_due_idx`.execute(db);
  await sql`create index webhook_deliveries_retry_due_idx on webhook_deliveries (next_attempt_at) where status = 'pending'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index webhook_deliveries_retry_due_idx`.execute(db);
  await sql`create index webhook_deliveries_open_due_idx on webhook_deliveries (next_attempt_at) where status in ('pending', 'sending')`.execute(db);
}
