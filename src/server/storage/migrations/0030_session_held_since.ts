import { sql, type Kysely } from 'kysely';

/**
 * When a session's current holder took it (`held_since`, the database's clock). A send claimed through the session's
 * channel before then was claimed by a former holder, whose connection is gone: the holder may claim it again at once
 * rather than wait for that claim to lapse. A nullable column added: nothing existing is rewritten.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table sessions add column if not exists held_since timestamptz`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table sessions drop column if exists held_since`.execute(db);
}
