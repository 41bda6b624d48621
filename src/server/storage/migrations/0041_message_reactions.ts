import { sql, type Kysely } from 'kysely';

/**
 * Emoji reactions to messages: one per reactor and message (the agent's side is `agent`; a customer is named by
 * the messenger's id of who reacted). Removing a reaction deletes its row. Read by message id for a page of history.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table if not exists message_reactions (
      message_id uuid not null references messages(id) on delete cascade,
      reactor text not null,
      emoji text not null,
      reacted_at timestamptz not null,
      primary key (message_id, reactor)
    )
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table message_reactions`.execute(db);
}
