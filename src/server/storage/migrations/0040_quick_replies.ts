import { sql, type Kysely } from 'kysely';

/**
 * Quick replies: an account's saved answers, which agents insert in the chat frame by typing `/` and a shortcut.
 * A shortcut is unique within the account (case-insensitively: `/Hello` and `/hello` would be one to an agent);
 * the list is read whole, in shortcut order, by the account.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table if not exists quick_replies (
      id uuid primary key default gen_random_uuid(),
      account_id uuid not null references accounts(id) on delete cascade,
      shortcut text not null,
      text text not null,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )
  `.execute(db);
  await sql`create unique index if not exists quick_replies_shortcut_idx on quick_replies (account_id, lower(shortcut))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table quick_replies`.execute(db);
}
