import { messageSearchLimits, searchTerms, type MessageHits, type MessagesSearchQuery } from '../../../contract/bff-message-search.ts';
import type { Store } from '../ports.ts';
import { messageCursor, parseMessageCursor } from './cursor.ts';
import { chatForReader, chatKeysOf, type ChatReadScope } from './list-chats.ts';
import { toBffChat } from './views.ts';

/**
 * The chat list's search across message texts: messages of every chat the reader may list (the same account,
 * card, channels) whose words start with each of the query's words, newest first, a page at a time, each page
 * with its hits' chats as the list shows them (phone numbers hidden from a reader who may not see them). The
 * words are looked up in the full-text index of migration 0032, so the cost follows the matches, not the
 * account's messages.
 */
export async function searchMessages({ store }: { store: Store }, scope: ChatReadScope, query: MessagesSearchQuery): Promise<MessageHits> {
  const limit = Math.min(query.limit ?? messageSearchLimits.default, messageSearchLimits.max);
  const beforeSeq = query.cursor === undefined ? undefined : parseMessageCursor(query.cursor, 'cursor');
  const terms = searchTerms(query.q);
  if (terms.length === 0) return { hits: [], chats: [], next_cursor: null };
  const only = scope.chats === null ? null : chatKeysOf(scope.chats);
  const channelIds = scope.rights?.channels ? [...scope.rights.channels] : null;
  const rows = await store.messages.searchMessages({ accountId: scope.accountId, only, channelIds, terms, beforeSeq, limit: limit + 1 });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const ids = [...new Set(page.map((r) => r.chatRef))];
  const chats = ids.length === 0 ? [] : await store.chats.listPage({ accountId: scope.accountId, only, channelIds, ids, limit: ids.length });
  return {
    hits: page.map((r) => ({ message_id: r.id, chat_ref: r.chatRef, direction: r.direction, text: r.text, created_at: r.createdAt.toISOString() })),
    chats: chats.map((row) => chatForReader(scope, toBffChat(row))),
    next_cursor: rows.length > limit && last ? messageCursor(last.seq) : null,
  };
}
