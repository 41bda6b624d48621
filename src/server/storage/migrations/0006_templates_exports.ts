import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Business-API templates of wapi channels, as the platform moderates them.
  await db.schema
    .createTable('templates')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('account_id', 'uuid', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('channel_id', 'uuid', (c) => c.notNull().references('channels.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull().check(sql`category in ('MARKETING', 'UTILITY', 'AUTHENTICATION')`))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('APPROVED', 'PENDING', 'REJECTED', 'PAUSED', 'DISABLED')`))
    .addColumn('components', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addUniqueConstraint('templates_channel_name_language_key', ['channel_id', 'name', 'language'])
    .execute();
  await db.schema.createIndex('templates_account_idx').on('templates').columns(['account_id', 'channel_id']).execute();

  // Message export tasks. channel_id has no foreign key: the task outlives a channel deleted with its history.
  await db.schema
    .createTable('exports')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('account_id', 'uuid', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('channel_id', 'uuid')
    .addColumn('start_at', 'timestamptz', (c) => c.notNull())
    .addColumn('end_at', 'timestamptz', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'processing', 'done', 'webhook_failed')`))
    .addColumn('row_count', 'integer')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addColumn('completed_at', 'timestamptz')
    .addColumn('expires_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('exports_account_idx').on('exports').columns(['account_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['exports', 'templates']) await db.schema.dropTable(table).execute();
}
