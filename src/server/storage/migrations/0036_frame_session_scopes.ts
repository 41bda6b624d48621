import { sql, type Kysely } from 'kysely';

/**
 * A frame session keeps the OAuth scopes of the token that made its link (`scopes`, comma-separated), so that the
 * frame may do no more than that token. Nullable, no default: adding the column rewrites nothing, and sessions
 * opened before it, like those of client tokens, hold every scope.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table embed_sessions add column scopes text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table embed_sessions drop column scopes`.execute(db);
}
