import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // A conversation of a channel with one customer or group. `chat_id` is the messenger's id; it is unknown
  // (null) for a send addressed by username or phone until the messenger resolves it.
  await db.schema
    .createTable('chats')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('account_id', 'uuid', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('channel_id', 'uuid', (c) => c.notNull().references('channels.id').onDelete('cascade'))
    .addColumn('chat_type', 'text', (c) => c.notNull())
    .addColumn('chat_id', 'text')
    .addColumn('username', 'text')
    .addColumn('phone', 'text')
    .addColumn('name', 'text')
    .addColumn('unanswered', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_message_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`create unique index chats_messenger_id_idx on chats (channel_id, chat_type, chat_id) where chat_id is not null`.execute(db);
  await db.schema.createIndex('chats_account_recent_idx').on('chats').columns(['account_id', 'last_message_at']).execute();

  await db.schema
    .createTable('messages')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    // Insertion order: ties of equal timestamps broken for pagination and the export.
    .addColumn('seq', 'bigint', (c) => c.generatedAlwaysAsIdentity())
    .addColumn('request_id', 'uuid', (c) => c.unique())
    .addColumn('account_id', 'uuid', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('channel_id', 'uuid', (c) => c.notNull().references('channels.id').onDelete('cascade'))
    .addColumn('chat_ref', 'uuid', (c) => c.notNull().references('chats.id').onDelete('cascade'))
    .addColumn('direction', 'text', (c) => c.notNull().check(sql`direction in ('inbound', 'outbound')`))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('accepted', 'sent', 'delivered', 'read', 'failed')`))
    .addColumn('reason', 'text')
    .addColumn('text', 'text')
    .addColumn('attachment', 'jsonb')
    .addColumn('template', 'jsonb')
    .addColumn('keyboard', 'jsonb')
    .addColumn('quoted_message_id', 'uuid')
    .addColumn('crm_user_id', 'text')
    .addColumn('reset_unanswered', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('messenger_message_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('sent_at', 'timestamptz')
    .addColumn('delivered_at', 'timestamptz')
    .addColumn('read_at', 'timestamptz')
    .addColumn('edited_at', 'timestamptz')
    .addColumn('deleted_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('messages_chat_idx').on('messages').columns(['chat_ref', 'seq']).execute();
  await db.schema.createIndex('messages_account_created_idx').on('messages').columns(['account_id', 'created_at', 'seq']).execute();
  await db.schema.createIndex('messages_channel_created_idx').on('messages').columns(['channel_id', 'created_at']).execute();

  // Members of group chats (whatsgroup, telegroup, maxgroup), as the messenger reports them.
  await db.schema
    .createTable('group_members')
    .addColumn('chat_ref', 'uuid', (c) => c.notNull().references('chats.id').onDelete('cascade'))
    .addColumn('member_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('avatar_url', 'text')
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('in_group', 'invited', 'unknown', 'deleted', 'not_exists')`))
    .addPrimaryKeyConstraint('group_members_pk', ['chat_ref', 'member_id'])
    .execute();
  await sql`alter table chats add column avatar_url text`.execute(db);

  // The simulated network's side of messaging: what each channel's counterpart received (once per request),
  // and the customers it knows (who wrote first, who blocked the channel, who does not exist).
  await db.schema
    .createTable('sandbox_received')
    .addColumn('request_id', 'uuid', (c) => c.primaryKey())
    .addColumn('channel_id', 'uuid', (c) => c.notNull())
    .addColumn('messenger_message_id', 'text', (c) => c.notNull())
    .addColumn('chat_id', 'text', (c) => c.notNull())
    .addColumn('received_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('sandbox_customers')
    .addColumn('channel_id', 'uuid', (c) => c.notNull())
    .addColumn('chat_type', 'text', (c) => c.notNull())
    .addColumn('chat_id', 'text', (c) => c.notNull())
    .addColumn('wrote_first', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('ok').check(sql`state in ('ok', 'blocked', 'missing')`))
    .addColumn('last_inbound_at', 'timestamptz')
    .addPrimaryKeyConstraint('sandbox_customers_pk', ['channel_id', 'chat_type', 'chat_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['sandbox_customers', 'sandbox_received', 'group_members', 'messages', 'chats']) await db.schema.dropTable(table).execute();
}
