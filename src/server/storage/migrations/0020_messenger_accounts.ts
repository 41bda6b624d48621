import { sql, type Kysely } from 'kysely';

/**
 * The platform's account a channel belongs to, where it is not the channel's own (`messenger_id`): a WhatsApp number
 * (`messenger_id`, the phone number id) belongs to a WhatsApp Business Account, and Meta posts what concerns the whole
 * account (its templates' moderation, a ban, a restriction) naming the account only. Nullable, no default: adding it
 * rewrites nothing. Channels are few (one row per connected account), so building the index holds writes to them back
 * only for a moment. A process of the release before neither reads nor writes the column: processes of the two
 * releases may run side by side while they are replaced (a wapi channel connected by the older one has none, and is
 * then reached by its number alone until it is connected again).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table channels add column messenger_account_id text`.execute(db);
  await sql`create index if not exists channels_messenger_account_idx on channels (transport, messenger_account_id) where deleted_at is null and messenger_account_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists channels_messenger_account_idx`.execute(db);
  await sql`alter table channels drop column messenger_account_id`.execute(db);
}
