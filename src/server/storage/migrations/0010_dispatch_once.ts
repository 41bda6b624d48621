import { sql, type Kysely } from 'kysely';

/**
 * Webhook deliveries are queued by the statement that records their event, not by a later dispatch; the
 * dispatcher only marks events dispatched and pushes them to live connections, so its lease goes. Events
 * recorded but not dispatched before this change get their deliveries here, as the old dispatch would have.
 * The index that found a key's undispatched events for the old fan-out goes too.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    insert into webhook_deliveries (id, subscription_id, account_id, event_id, event_name, endpoint, lane, seq, status, attempts, next_attempt_at, created_at)
    select gen_random_uuid(), s.id, e.account_id, e.id, e.name, md5(s.url), coalesce(e.ordering_key, 'event:' || e.id::text), e.position,
           'pending', 0, now(), e.created_at
    from events e
    join webhook_subscriptions s on s.account_id = e.account_id and s.event = e.name and s.status = 'active'
    where e.dispatched_at is null
    on conflict (event_id, subscription_id) do nothing`.execute(db);
  await sql`alter table events drop column dispatch_lease_until`.execute(db);
  await sql`drop index events_undispatched_key_idx`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`create index events_undispatched_key_idx on events (account_id, ordering_key, position) where dispatched_at is null`.execute(db);
  await sql`alter table events add column dispatch_lease_until timestamptz`.execute(db);
}
