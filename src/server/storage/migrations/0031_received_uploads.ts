import { sql, type Kysely } from 'kysely';

/**
 * Files customers sent, downloaded from their messenger and kept like the agents' uploads (`received`): they are
 * served the same way but do not count toward the account's daily upload quota, which is the agents' own. A column
 * with a constant default: nothing existing is rewritten.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table uploads add column if not exists received boolean not null default false`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table uploads drop column if exists received`.execute(db);
}
