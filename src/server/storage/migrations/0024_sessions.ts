import { sql, type Kysely } from 'kysely';

/**
 * Long-lived connections to a messenger (a personal account's session) and which process runs each. One row per
 * session, keyed by its channel: `owner` is the process holding the lease until `lease_until`; `generation` grows with
 * every new owner, so that a process that lost its lease can no longer write the session's state. The state itself
 * (the library's keys, sealed like channel credentials) is kept in `session_state`, one row per key, so that the many
 * small changes a session makes rewrite only what changed. A session is registered while its channel is being
 * connected, before the channel's row commits, so it names the channel without a foreign key: only a session whose
 * channel exists (and is not deleted) is ever taken. New tables only: nothing existing is rewritten.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table if not exists sessions (
      channel_id uuid primary key,
      transport text not null,
      owner text,
      lease_until timestamptz,
      generation bigint not null default 0,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index if not exists sessions_owner_idx on sessions (owner) where owner is not null`.execute(db);
  await sql`
    create table if not exists session_state (
      channel_id uuid not null references sessions (channel_id) on delete cascade,
      key text not null,
      value text not null,
      primary key (channel_id, key)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists session_state`.execute(db);
  await sql`drop table if exists sessions`.execute(db);
}
