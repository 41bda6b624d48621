import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // A frame resumes its account's stream after a position (events.position, see 0004).
  await db.schema.createIndex('events_account_position_idx').on('events').columns(['account_id', 'position']).execute();

  await db.schema
    .createTable('embedding_origins')
    .addColumn('account_id', 'uuid', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('embedding_origins_pk', ['account_id', 'origin'])
    .execute();

  await db.schema
    .createTable('embed_sessions')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('account_id', 'uuid', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('link_id', 'text', (c) => c.notNull().unique())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('chats', 'channels')`))
    .addColumn('user_id', 'text')
    .addColumn('user_name', 'text')
    .addColumn('scope', 'text', (c) => c.check(sql`scope in ('global', 'card')`))
    .addColumn('chats', 'jsonb', (c) => c.notNull())
    .addColumn('active_chat', 'jsonb')
    .addColumn('transport', 'text')
    .addColumn('channel_id', 'uuid')
    .addColumn('options', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('max_expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('embed_sessions_account_user_idx').on('embed_sessions').columns(['account_id', 'user_id']).execute();
  await db.schema.createIndex('embed_sessions_max_expires_idx').on('embed_sessions').column('max_expires_at').execute();

  await db.schema
    .createTable('crm_users')
    .addColumn('account_id', 'uuid', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('crm_users_pk', ['account_id', 'id'])
    .execute();

  await db.schema
    .createTable('crm_contacts')
    .addColumn('account_id', 'uuid', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('chat_type', 'text', (c) => c.notNull())
    .addColumn('key_kind', 'text', (c) => c.notNull().check(sql`key_kind in ('chat_id', 'username', 'phone')`))
    .addColumn('key_value', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('crm_contacts_pk', ['account_id', 'chat_type', 'key_kind', 'key_value'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['crm_contacts', 'crm_users', 'embed_sessions', 'embedding_origins']) await db.schema.dropTable(table).execute();
  await db.schema.dropIndex('events_account_position_idx').execute();
}
