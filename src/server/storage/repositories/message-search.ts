import { sql, type Kysely } from 'kysely';
import type { MessageSearch, MessageSearchQuery, MessageSearchRow } from '../../core/chats/ports.ts';
import type { DatabaseSchema } from '../schema.ts';
import { matchesKey } from './chats.ts';
import { anyUuid } from './json-rows.ts';

/**
 * The query's words as a tsquery: each a prefix (`'word':*`), all required. The words hold letters and digits
 * only (the contract's `searchTerms`), so none can close its quotes or add an operator; checked again here,
 * because a tsquery built of anything else would be the user's syntax. to_tsquery lower-cases them as the index's
 * to_tsvector lower-cased the texts, through the same 'simple' configuration.
 */
export function prefixQuery(terms: readonly string[]): string {
  if (terms.length === 0 || terms.some((t) => !/^[\p{L}\p{N}]+$/u.test(t))) throw new Error('search terms must be letters and digits');
  return terms.map((t) => `'${t}':*`).join(' & ');
}

/**
 * A message's words, exactly as migration 0032 indexes them (ASCII punctuation as spaces, the 'simple'
 * configuration): any other expression would not be read from the index.
 */
const WORDS = sql.raw("to_tsvector('simple', translate(left(m.text, 65536), $$!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~$$, repeat(' ', 32)))");

/**
 * The statement: messages of the account whose words match, in the reader's chats, newest first. Its
 * conditions on text and deleted_at repeat the index's own (migration 0032), which lets the planner use it; the
 * expression must stay exactly the indexed one.
 */
export function messageSearchQuery(db: Kysely<DatabaseSchema>, q: MessageSearchQuery) {
  const conditions = [sql`m.account_id = ${q.accountId}`, sql`m.text is not null`, sql`m.deleted_at is null`, sql`m.status <> 'accepted'`];
  conditions.push(sql`${WORDS} @@ to_tsquery('simple', ${prefixQuery(q.terms)})`);
  if (q.only !== null) conditions.push(sql`(${sql.join(q.only.map(matchesKey), sql` or `)})`);
  if (q.channelIds) conditions.push(sql`c.channel_id = ${anyUuid(q.channelIds)}`);
  if (q.beforeSeq !== undefined) conditions.push(sql`m.seq < ${q.beforeSeq}::bigint`);
  return sql<{ id: string; chat_ref: string; direction: 'inbound' | 'outbound'; text: string; created_at: Date; seq_text: string }>`
    select m.id, m.chat_ref, m.direction, m.text, m.created_at, m.seq::text as seq_text
    from messages m
    join chats c on c.id = m.chat_ref and c.account_id = m.account_id
    where ${sql.join(conditions, sql` and `)}
    order by m.seq desc
    limit ${q.limit}`.compile(db);
}

export function messageSearch(db: Kysely<DatabaseSchema>): MessageSearch {
  return {
    async searchMessages(q): Promise<MessageSearchRow[]> {
      if (q.only !== null && q.only.length === 0) return [];
      if (q.channelIds && q.channelIds.length === 0) return [];
      const { rows } = await db.executeQuery(messageSearchQuery(db, q));
      return rows.map((r) => ({ id: r.id, chatRef: r.chat_ref, direction: r.direction, text: r.text, createdAt: r.created_at, seq: r.seq_text }));
    },
  };
}
