import { sql, type Kysely } from 'kysely';

/**
 * Files agents attach in the chat frame, until the retention pass deletes them (`created_at`). On PostgreSQL the
 * bytes are kept here too (every process serves every link, with no shared disk); the embedded database keeps them
 * on disk beside it (`content` null). A new table: nothing existing is rewritten or locked.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table uploads (
      id uuid primary key,
      account_id uuid not null references accounts (id) on delete cascade,
      name text not null,
      mimetype text not null,
      size integer not null,
      sha1 text not null,
      content bytea,
      created_at timestamptz not null
    )`.execute(db);
  await sql`create index uploads_created_at_idx on uploads (created_at)`.execute(db);
  // An account's bytes of the last day, summed before each upload.
  await sql`create index uploads_account_created_at_idx on uploads (account_id, created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table uploads`.execute(db);
}
