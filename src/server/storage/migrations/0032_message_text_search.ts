import { sql, type Kysely } from 'kysely';

/** A message's words, as the index holds them; the search's statement repeats this expression exactly. */
const WORDS = "to_tsvector('simple', translate(left(text, 65536), $$!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~$$, repeat(' ', 32)))";

/**
 * The chat list's search finds messages by their words across all the reader's chats: a GIN index of each
 * message's words, for the search to match prefixes of them (`word:*`) without reading the account's messages.
 * The 'simple' configuration lower-cases words and stems none, so it serves every language alike (Russian as
 * English); lower-casing follows the database's LC_CTYPE, so a database created with the C locale matches only
 * Latin letters in any case. ASCII punctuation becomes spaces first: PostgreSQL's parser would otherwise read
 * "AB-7731" as a word and a negative number, "a.b@c.com" as one address, and no word of theirs would be found
 * as typed. At most the first 64 Ki characters of a text are indexed: a tsvector is limited to 1 MiB, and a
 * longer text would otherwise refuse the message.
 *
 * Partial: messages without text (files alone) and deleted ones are never searched, and write no entry. Nor do
 * sends still waiting in the queue (`accepted`): a send is indexed once, as it leaves, rather than both when it
 * is accepted and again when it is sent, since that update cannot be HOT (it changes the queue's indexed status),
 * and every update that is not HOT adds the row's entries to each index anew. `status` is in the queue index's
 * predicate already, so naming it here makes no update less HOT. GIN's pending list (fastupdate, on by default)
 * takes each new entry in one append and merges them into the tree in batches. What it costs per message:
 * docs/embedding.md, "the search across chats".
 *
 * Built inside the migration's transaction, so writes to messages wait while it is built. On a large table an
 * operator builds it first, without holding writes back: `create index concurrently if not exists
 * messages_text_search_idx on messages using gin (<WORDS>) where text is not null and deleted_at is null and status <>
 * 'accepted'`, with
 * WORDS as above (docs/upgrading.md has it whole); the migration then finds it and builds nothing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists messages_text_search_idx on messages using gin (${sql.raw(WORDS)}) where text is not null and deleted_at is null and status <> 'accepted'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists messages_text_search_idx`.execute(db);
}
