import { sql, type Kysely } from 'kysely';

/**
 * The messages table is the send queue: an outbound message still `accepted` is waiting to leave. A sender
 * leases the head of each chat's line (the lowest `seq` still accepted) while it talks to the messenger;
 * a network failure puts it back with `send_after` (domain time) and counts the attempt, so a chat's later
 * messages wait behind it. The partial index holds only what is still to be sent, in each chat's order.
 *
 * Leases (of sends here, of events by the dispatcher) touch no indexed column: with room left on each page
 * they are heap-only updates that write no index entries. And a message reaches its account and channel
 * through its chat, whose foreign keys enforce both and cascade deletions; checking them again for every
 * inserted message was work without a guarantee of its own.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table messages add column send_attempts integer not null default 0`.execute(db);
  await sql`alter table messages add column send_after timestamptz`.execute(db);
  await sql`alter table messages add column send_lease_until timestamptz`.execute(db);
  await sql`create index messages_unsent_idx on messages (chat_ref, seq) where status = 'accepted' and request_id is not null`.execute(db);
  await sql`alter table messages set (fillfactor = 80)`.execute(db);
  await sql`alter table events set (fillfactor = 80)`.execute(db);
  await sql`alter table messages drop constraint messages_account_id_fkey`.execute(db);
  await sql`alter table messages drop constraint messages_channel_id_fkey`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table messages add constraint messages_channel_id_fkey foreign key (channel_id) references channels (id) on delete cascade`.execute(db);
  await sql`alter table messages add constraint messages_account_id_fkey foreign key (account_id) references accounts (id) on delete cascade`.execute(db);
  await sql`alter table events reset (fillfactor)`.execute(db);
  await sql`alter table messages reset (fillfactor)`.execute(db);
  await sql`drop index messages_unsent_idx`.execute(db);
  await sql`alter table messages drop column send_lease_until`.execute(db);
  await sql`alter table messages drop column send_after`.execute(db);
  await sql`alter table messages drop column send_attempts`.execute(db);
}
