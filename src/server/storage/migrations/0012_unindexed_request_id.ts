import { sql, type Kysely } from 'kysely';

/**
 * A message's `request_id` is made by the gateway (a random UUID) when it accepts the send, and nothing looks a
 * message up by it: every later step finds the message by its id. Its unique index only cost work: an entry
 * written with every message, and again with every update that cannot stay on its page, which the settlement
 * never can (it changes `status`, which the send queue's partial index reads).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table messages drop constraint messages_request_id_key`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table messages add constraint messages_request_id_key unique (request_id)`.execute(db);
}
