import { sql, type Kysely } from 'kysely';

/**
 * What minted a frame session (`minted_by`: the credential its link was created with, e.g. `token:<id>`), and the
 * credentials revoked since (`ended_grants`), so that revoking a credential ends the sessions it made and refuses
 * its links that were not used yet. Nullable, no default: adding the column rewrites nothing, and sessions opened
 * before it simply name no credential (they end at their own expiry, as before).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table embed_sessions add column minted_by text`.execute(db);
  await sql`create index if not exists embed_sessions_minted_by_idx on embed_sessions (minted_by) where minted_by is not null and revoked_at is null`.execute(db);
  await sql`create table if not exists ended_grants (grant_id text primary key, ended_at timestamptz not null)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists ended_grants`.execute(db);
  await sql`drop index if exists embed_sessions_minted_by_idx`.execute(db);
  await sql`alter table embed_sessions drop column minted_by`.execute(db);
}
