import { sql, type Kysely } from 'kysely';

/**
 * Accounts as partners know them: an 8-digit numeric public id (existing accounts are numbered in the order they were
 * created), the partner that created one, its language, currency, country and time zone, its owner's sign-in (email
 * and an Argon2id hash), and a balance that pays for WhatsApp Business API conversations, with its movements.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create sequence accounts_public_id_seq minvalue 10000000 maxvalue 99999999 start 10000001`.execute(db);
  // Numbered in creation order: the sequence is drawn in that order, then becomes the column's default.
  await db.schema.alterTable('accounts').addColumn('public_id', 'integer').execute();
  await sql`
    update accounts set public_id = n.id
    from (select id as account, nextval('accounts_public_id_seq') as id from (select id from accounts order by created_at, id) o) n
    where accounts.id = n.account`.execute(db);
  await sql`alter table accounts alter column public_id set default nextval('accounts_public_id_seq'), alter column public_id set not null`.execute(db);
  await db.schema.createIndex('accounts_public_id_key').on('accounts').column('public_id').unique().execute();
  await db.schema
    .alterTable('accounts')
    .addColumn('partner_id', 'uuid', (c) => c.references('partners.id').onDelete('set null'))
    .addColumn('lang', 'text')
    .addColumn('currency', 'text')
    .addColumn('country', 'text')
    .addColumn('timezone', 'integer')
    .addColumn('waba_balance', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('account_owners')
    .addColumn('account_id', 'uuid', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('waba_transactions')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('account_id', 'uuid', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    // Null for a top-up of the account; the channel a conversation was paid for otherwise.
    .addColumn('channel_id', 'uuid')
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('top_up', 'conversation')`))
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('chat_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('waba_transactions_channel_idx').on('waba_transactions').columns(['channel_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('waba_transactions').execute();
  await db.schema.dropTable('account_owners').execute();
  await db.schema.alterTable('accounts').dropColumn('waba_balance').dropColumn('timezone').dropColumn('country').dropColumn('currency').dropColumn('lang').dropColumn('partner_id').dropColumn('public_id').execute();
  await sql`drop sequence accounts_public_id_seq`.execute(db);
}
