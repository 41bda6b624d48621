import { sql, type Kysely } from 'kysely';

/**
 * Users with phones, the account's rights settings (roles per channel, users who see no phone numbers), who got
 * each new customer, and what a frame's session posts to its host. Only new tables and nullable columns: rows
 * that exist keep working (a user has no phone, an account no settings, a session posts every bridge message),
 * and a process of the release before reads and writes around them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table embed_sessions add column if not exists use_events jsonb`.execute(db);
  await sql`alter table embed_sessions add column if not exists client_type text`.execute(db);

  await sql`alter table crm_users add column if not exists phone text`.execute(db);
  // A phone belongs to one user of the account.
  await sql`create unique index if not exists crm_users_phone_idx on crm_users (account_id, phone) where phone is not null`.execute(db);

  await db.schema
    .createTable('crm_settings')
    .ifNotExists()
    .addColumn('account_id', 'uuid', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
    .addColumn('hide_phone_numbers_for_user_ids', 'jsonb', (c) => c.notNull())
    .addColumn('push_input_output_message_events_for_managers', 'boolean', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('crm_user_roles')
    .ifNotExists()
    .addColumn('account_id', 'uuid', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('channel_id', 'uuid', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('seller', 'manager', 'auditor')`))
    .addColumn('allow_get_new_clients', 'boolean', (c) => c.notNull())
    .addPrimaryKeyConstraint('crm_user_roles_pk', ['account_id', 'channel_id', 'user_id'])
    .execute();

  await db.schema
    .createTable('crm_chat_assignments')
    .ifNotExists()
    .addColumn('chat_ref', 'uuid', (c) => c.primaryKey().references('chats.id').onDelete('cascade'))
    .addColumn('account_id', 'uuid', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('assigned_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`create index if not exists crm_chat_assignments_user_idx on crm_chat_assignments (account_id, user_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['crm_chat_assignments', 'crm_user_roles', 'crm_settings']) await db.schema.dropTable(table).ifExists().execute();
  await sql`drop index if exists crm_users_phone_idx`.execute(db);
  await sql`alter table crm_users drop column if exists phone`.execute(db);
  await sql`alter table embed_sessions drop column if exists client_type`.execute(db);
  await sql`alter table embed_sessions drop column if exists use_events`.execute(db);
}
