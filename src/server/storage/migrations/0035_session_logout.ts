import { sql, type Kysely } from 'kysely';

/**
 * A logout asked of a session (`logout_requested`): its channel was deleted or is linked anew, through whichever
 * process took the call. The process holding the session (or, when none does, the next to take it) logs the device out
 * on the messenger with the session's stored keys, then ends the session; the keys go only after that. A column with a
 * constant default: nothing existing is rewritten.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table sessions add column if not exists logout_requested boolean not null default false`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table sessions drop column if exists logout_requested`.execute(db);
}
