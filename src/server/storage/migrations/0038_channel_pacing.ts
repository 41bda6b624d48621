import { sql, type Kysely } from 'kysely';

/**
 * Pacing of personal channels (WhatsApp and Telegram numbers of a person). `channel_pacing` holds, per channel, the
 * admin's overrides of the default profile and the day's counts, shared by every process (a takeover goes on with
 * them). A held send says why in `messages.hold_reason` (a nullable column without a default: nothing is
 * rewritten). The sender takes a paced channel's sends in the order they were accepted, the oldest due first: the
 * partial index holds only what is still to be sent, by channel, in that order. Its condition names the direction, so
 * that the claim's walk over each chat's head (which does not) never takes it for the unsent index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('channel_pacing')
    .ifNotExists()
    .addColumn('channel_id', 'uuid', (c) => c.primaryKey().references('channels.id').onDelete('cascade'))
    .addColumn('overrides', 'jsonb')
    .addColumn('linked_at', 'timestamptz', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('sent_today', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('first_contacts_today', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_send_at', 'timestamptz')
    .addColumn('burst', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('gap_ms', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('slow_until', 'timestamptz')
    .addColumn('slow_reason', 'text')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`alter table messages add column if not exists hold_reason text`.execute(db);
  await sql`create index if not exists messages_unsent_channel_idx on messages (channel_id, seq) where status = 'accepted' and request_id is not null and direction = 'outbound'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists messages_unsent_channel_idx`.execute(db);
  await sql`alter table messages drop column if exists hold_reason`.execute(db);
  await db.schema.dropTable('channel_pacing').ifExists().execute();
}
