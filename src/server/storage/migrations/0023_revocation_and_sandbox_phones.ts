import { sql, type Kysely } from 'kysely';

/**
 * Two changes that close what one account could do to another's frames or phones.
 *
 * What minted a frame session (`minted_by`: the credential its link was created with, e.g. `token:<id>`), and the
 * credentials revoked since (`ended_grants`), so that revoking a credential ends the sessions it made and refuses
 * its links that were not used yet. Nullable, no default: adding the column rewrites nothing, and sessions opened
 * before it simply name no credential (they end at their own expiry, as before).
 *
 * Sandbox phones belong to the account that set them up (`sandbox_phones.account_id`): one account's two-factor
 * password for a number is neither seen nor changed by another. The sandbox's phones were shared before, so their
 * rows name no account; they are dropped (a simulated password, set again in one call) rather than handed to
 * whichever account happens to ask first.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table embed_sessions add column minted_by text`.execute(db);
  await sql`create index if not exists embed_sessions_minted_by_idx on embed_sessions (minted_by) where minted_by is not null and revoked_at is null`.execute(db);
  await sql`create table if not exists ended_grants (grant_id text primary key, ended_at timestamptz not null)`.execute(db);

  await sql`delete from sandbox_phones`.execute(db);
  await sql`alter table sandbox_phones drop constraint sandbox_phones_pkey`.execute(db);
  await sql`alter table sandbox_phones add column account_id uuid not null references accounts (id) on delete cascade`.execute(db);
  await sql`alter table sandbox_phones add primary key (account_id, phone)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from sandbox_phones`.execute(db);
  await sql`alter table sandbox_phones drop constraint sandbox_phones_pkey`.execute(db);
  await sql`alter table sandbox_phones drop column account_id`.execute(db);
  await sql`alter table sandbox_phones add primary key (phone)`.execute(db);
  await sql`drop table if exists ended_grants`.execute(db);
  await sql`drop index if exists embed_sessions_minted_by_idx`.execute(db);
  await sql`alter table embed_sessions drop column minted_by`.execute(db);
}
