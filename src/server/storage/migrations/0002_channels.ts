import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('channels')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('account_id', 'uuid', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('transport', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('active', 'init', 'disabled')`))
    .addColumn('reason', 'text')
    .addColumn('phone', 'text')
    .addColumn('username', 'text')
    .addColumn('messenger_id', 'text')
    .addColumn('name', 'text')
    .addColumn('auth_url', 'text')
    .addColumn('tier', 'text')
    .addColumn('paid', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('credentials', 'text')
    .addColumn('qr', 'jsonb')
    .addColumn('pairing', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    // A channel deleted with its history kept stays for its chats and the export, out of the API's sight.
    .addColumn('deleted_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('channels_account_idx').on('channels').columns(['account_id', 'created_at']).execute();

  // The simulated messenger network: accounts behind phone numbers, and bot tokens it no longer accepts.
  await db.schema
    .createTable('sandbox_phones')
    .addColumn('phone', 'text', (c) => c.primaryKey())
    .addColumn('two_factor_password', 'text')
    .execute();
  await db.schema.createTable('sandbox_revoked_tokens').addColumn('token_hash', 'text', (c) => c.primaryKey()).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['sandbox_revoked_tokens', 'sandbox_phones', 'channels']) await db.schema.dropTable(table).execute();
}
