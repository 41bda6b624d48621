import { sql, type Kysely } from 'kysely';

/**
 * The follow-up batches behind a batch are read, not written, and keyed by their rows: sent again after a
 * crash, they must be formed of the same rows. Events that reached the batch's chats after it was formed
 * would join them (and put an event already sent under a second key), so each head of a batch keeps the lane
 * position its run was read up to (`run_until`); a run read again stops there. Nullable, no default: adding
 * it rewrites nothing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhook_deliveries add column run_until bigint`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhook_deliveries drop column run_until`.execute(db);
}
