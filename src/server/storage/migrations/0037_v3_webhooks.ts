import { sql, type Kysely } from 'kysely';

/**
 * The v3 face's webhook address. Each subscription says which face formats its bodies (`face`, `v2` for every
 * existing one: a column with a constant default, nothing rewritten). An account's one v3 address with its four
 * switches and the CRM's key is kept in `webhook_v3_settings`; its subscriptions, one per event name the switches
 * cover, sit beside the v2 ones and go through the same deliveries.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhook_subscriptions add column if not exists face text not null default 'v2'`.execute(db);
  await db.schema
    .createTable('webhook_v3_settings')
    .ifNotExists()
    .addColumn('account_id', 'uuid', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
    .addColumn('uri', 'text')
    .addColumn('messages_and_statuses', 'boolean', (c) => c.notNull())
    .addColumn('contacts_and_deals_creation', 'boolean', (c) => c.notNull())
    .addColumn('channels_updates', 'boolean', (c) => c.notNull())
    .addColumn('template_status', 'boolean', (c) => c.notNull())
    .addColumn('crm_key', 'text')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('webhook_v3_settings').ifExists().execute();
  await sql`alter table webhook_subscriptions drop column if exists face`.execute(db);
}
