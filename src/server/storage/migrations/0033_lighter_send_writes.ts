import { sql, type Kysely } from 'kysely';

/**
 * Less written per message sent. Every accepted message wrote an entry into `messages_channel_created_idx`, and
 * its settlement (which moves the row: its status leaves the unsent index) another; no statement needs it: an
 * export of one channel pages through the account's (account_id, created_at, seq) index as an export of every
 * channel does, leaving out the other channels' rows.
 *
 * And each event checked its account's row (a foreign key: a lookup and a row lock per event, two per message
 * sent) although accounts are never deleted, and every event is recorded for the account a request or a channel
 * proved to exist; as with messages (migration 0009), the check was work without a guarantee of its own.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists messages_channel_created_idx`.execute(db);
  await sql`alter table events drop constraint if exists events_account_id_fkey`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table events add constraint events_account_id_fkey foreign key (account_id) references accounts (id) on delete cascade`.execute(db);
  await sql`create index if not exists messages_channel_created_idx on messages (channel_id, created_at)`.execute(db);
}
