import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The frames' chat list: an account's chats with unanswered messages first, then by last activity, read in
  // keyset pages. The index holds that order, so a page is a short range scan whatever the account's size.
  await sql`create index chats_account_list_idx on chats
    (account_id, (unanswered > 0) desc, (coalesce(last_message_at, created_at)) desc, id desc)`.execute(db);
  await sql`drop index if exists chats_account_recent_idx`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('chats_account_recent_idx').on('chats').columns(['account_id', 'last_message_at']).execute();
  await sql`drop index chats_account_list_idx`.execute(db);
}
