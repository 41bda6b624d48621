import { sql, type Kysely } from 'kysely';

/**
 * The CRM's own entities as the CRM sends them: contacts (each owning several chat handles, kept as a JSON list
 * searched by containment), deals (with their contacts' ids) and pipelines with their stages. New tables only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('crm_contact_cards')
    .ifNotExists()
    .addColumn('account_id', 'uuid', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('responsible_user_id', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('contact_data', 'jsonb', (c) => c.notNull())
    .addColumn('uri', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('crm_contact_cards_pk', ['account_id', 'id'])
    .execute();
  await sql`create index if not exists crm_contact_cards_handles_idx on crm_contact_cards using gin (contact_data jsonb_path_ops)`.execute(db);

  await db.schema
    .createTable('crm_deals')
    .ifNotExists()
    .addColumn('account_id', 'uuid', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('responsible_user_id', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('uri', 'text')
    .addColumn('contacts', 'jsonb', (c) => c.notNull())
    .addColumn('closed', 'boolean', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('crm_deals_pk', ['account_id', 'id'])
    .execute();
  await sql`create index if not exists crm_deals_contacts_idx on crm_deals using gin (contacts jsonb_path_ops)`.execute(db);

  await db.schema
    .createTable('crm_pipelines')
    .ifNotExists()
    .addColumn('account_id', 'uuid', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('stages', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('crm_pipelines_pk', ['account_id', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['crm_pipelines', 'crm_deals', 'crm_contact_cards']) await db.schema.dropTable(table).ifExists().execute();
}
