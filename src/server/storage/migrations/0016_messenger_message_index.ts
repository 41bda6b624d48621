import { sql, type Kysely } from 'kysely';

/**
 * A message is found by the messenger's number for it in its chat: a report sent again (its answer was lost)
 * finds the message it made, and a customer's edit, which may come days later, finds the message it changes.
 * Without an index that meant reading the chat's latest messages only. Partial: a send not answered yet has no
 * number and writes no entry until it is `sent`, an update that already writes index entries (it changes
 * `status`, which the send queue's partial index reads).
 *
 * Built inside the migration's transaction like the others, so writes to messages wait while it is built. On a
 * large table an operator builds it first, without holding writes back (README, "Upgrading"):
 * `create index concurrently if not exists messages_messenger_id_idx on messages (chat_ref, messenger_message_id)
 * where messenger_message_id is not null`; the migration then finds it and builds nothing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists messages_messenger_id_idx on messages (chat_ref, messenger_message_id) where messenger_message_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists messages_messenger_id_idx`.execute(db);
}
