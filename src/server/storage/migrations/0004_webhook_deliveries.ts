import { sql, type Kysely } from 'kysely';

/**
 * Webhook delivery: a per-event sequence (order within a chat), subscription health, the account's signing
 * secret and settings, one delivery row per (event, subscription), and the log of every POST.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Recording order (created_at can tie): the order of delivery within one ordering key, and the stream
  // position a reconnecting frame resumes from. Existing rows are numbered too.
  await sql`alter table events add column position bigint generated always as identity`.execute(db);
  await sql`create index events_undispatched_key_idx on events (account_id, ordering_key, position) where dispatched_at is null`.execute(db);

  await db.schema
    .alterTable('webhook_subscriptions')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active').check(sql`status in ('active', 'disabled')`))
    .addColumn('disabled_reason', 'text')
    .addColumn('disabled_at', 'timestamptz')
    .addColumn('failing_since', 'timestamptz')
    .execute();
  await db.schema.createIndex('webhook_subscriptions_event_idx').on('webhook_subscriptions').columns(['account_id', 'event']).execute();

  await db.schema
    .createTable('webhook_settings')
    .addColumn('account_id', 'uuid', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('previous_secret', 'text')
    .addColumn('previous_expires_at', 'timestamptz')
    .addColumn('batching', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('subscription_id', 'uuid', (c) => c.notNull().references('webhook_subscriptions.id').onDelete('cascade'))
    .addColumn('account_id', 'uuid', (c) => c.notNull())
    .addColumn('event_id', 'uuid', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('event_name', 'text', (c) => c.notNull())
    // Deliveries to one endpoint (md5 of the URL) in one lane (ordering key) go out one after another, in
    // seq order, whichever subscription routed them there.
    .addColumn('endpoint', 'text', (c) => c.notNull())
    .addColumn('lane', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'sending', 'delivered', 'failed')`))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz')
    .addColumn('lease_until', 'timestamptz')
    .addColumn('kicked_at', 'timestamptz')
    .addColumn('batch_id', 'uuid')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('delivered_at', 'timestamptz')
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addUniqueConstraint('webhook_deliveries_event_subscription_key', ['event_id', 'subscription_id'])
    .execute();
  await sql`create index webhook_deliveries_open_lane_idx on webhook_deliveries (account_id, endpoint, lane, seq) where status in ('pending', 'sending')`.execute(db);
  await sql`create index webhook_deliveries_open_due_idx on webhook_deliveries (next_attempt_at) where status in ('pending', 'sending')`.execute(db);
  await sql`create index webhook_deliveries_batch_idx on webhook_deliveries (batch_id) where batch_id is not null`.execute(db);
  await db.schema.createIndex('webhook_deliveries_log_idx').on('webhook_deliveries').columns(['subscription_id', 'created_at']).execute();

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('subscription_id', 'uuid', (c) => c.notNull().references('webhook_subscriptions.id').onDelete('cascade'))
    .addColumn('idempotency_key', 'uuid', (c) => c.notNull())
    .addColumn('event_name', 'text', (c) => c.notNull())
    .addColumn('event_ids', 'jsonb', (c) => c.notNull())
    .addColumn('attempted_at', 'timestamptz', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('latency_ms', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('outcome', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_attempts_log_idx').on('webhook_attempts').columns(['subscription_id', 'attempted_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('webhook_attempts').execute();
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropTable('webhook_settings').execute();
  await db.schema.dropIndex('webhook_subscriptions_event_idx').execute();
  await db.schema
    .alterTable('webhook_subscriptions')
    .dropColumn('status')
    .dropColumn('disabled_reason')
    .dropColumn('disabled_at')
    .dropColumn('failing_since')
    .execute();
  await sql`drop index events_undispatched_key_idx`.execute(db);
  await sql`alter table events drop column position`.execute(db);
}
