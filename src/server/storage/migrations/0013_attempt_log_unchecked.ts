import { sql, type Kysely } from 'kysely';

/**
 * The attempt log is written once per POST, and its foreign key made every row check its subscription: a
 * lookup with a row lock on the subscription, per attempt, about a tenth of PostgreSQL's work while
 * delivering. The log needs no such check. Its insert keeps only attempts of subscriptions that still exist,
 * deleting a subscription deletes its attempts (accounts are never deleted), and a row left by a deletion
 * racing its insert names no subscription anyone can read, and goes with the log's retention.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhook_attempts drop constraint webhook_attempts_subscription_id_fkey`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from webhook_attempts a where not exists (select 1 from webhook_subscriptions s where s.id = a.subscription_id)`.execute(db);
  await sql`alter table webhook_attempts add constraint webhook_attempts_subscription_id_fkey
    foreign key (subscription_id) references webhook_subscriptions (id) on delete cascade`.execute(db);
}
