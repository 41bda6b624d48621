import { sql, type Kysely } from 'kysely';

/**
 * The messages table is the send queue: an outbound message still `accepted` is waiting to leave. A sender
 * leases the head of each chat's line (the lowest `seq` still accepted) while it talks to the messenger;
 * a network failure puts it back with `send_after` (domain time) and counts the attempt, so a chat's later
 * messages wait behind it. The partial index holds only what is still to be sent, in each chat's order.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table messages add column send_attempts integer not null default 0`.execute(db);
  await sql`alter table messages add column send_after timestamptz`.execute(db);
  await sql`alter table messages add column send_lease_until timestamptz`.execute(db);
  await sql`create index messages_unsent_idx on messages (chat_ref, seq) where status = 'accepted' and request_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index messages_unsent_idx`.execute(db);
  await sql`alter table messages drop column send_lease_until`.execute(db);
  await sql`alter table messages drop column send_after`.execute(db);
  await sql`alter table messages drop column send_attempts`.execute(db);
}
