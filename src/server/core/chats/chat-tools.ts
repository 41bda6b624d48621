import { searchPageLimits, type ChatAnswered, type MessageMatches, type MessageSearchQuery } from '../../../contract/bff-chat-tools.ts';
import { recordEvent } from '../events/record-event.ts';
import type { ChatRecord } from '../messages/ports.ts';
import type { Clock, Store } from '../ports.ts';
import { messageCursor, parseMessageCursor } from './cursor.ts';
import { toBffMessage } from './views.ts';

/**
 * An agent marks a chat answered without sending: its unanswered counter goes to zero as a reply's acceptance
 * sets it, through the same statement that clears every chat of the account (DELETE /v2/chats/unanswered).
 * When the chat was waiting, the frames hear `chat.answered` (and from it the chat's new count); no webhook
 * carries it. The caller has checked that the session may write to the chat.
 */
export async function markChatAnswered(
  deps: { store: Store; clock: Clock },
  chat: ChatRecord,
  crmUserId: string | null,
): Promise<ChatAnswered> {
  const changed = await deps.store.transaction(async (tx) => {
    const cleared = await tx.rights.clearUnanswered(chat.accountId, chat.id);
    if (cleared === 0) return false;
    const payload = {
      chat_ref: chat.id,
      channel_id: chat.channelId,
      chat_type: chat.chatType,
      chat_id: chat.chatId,
      crm_user_id: crmUserId,
      timestamp: deps.clock.now().getTime(),
    };
    await recordEvent(tx, deps.clock, { accountId: chat.accountId, name: 'chat.answered', orderingKey: `chat:${chat.id}`, payload });
    return true;
  });
  return { chat_ref: chat.id, unanswered_count: 0, changed };
}

/**
 * The messages of one chat whose text contains `q` (case-insensitive), newest first, a page at a time. It walks
 * the chat's own messages backwards along their (chat, seq) index, so its cost is bounded by the chat, not the
 * account. The caller has checked that the session may read the chat.
 */
export async function searchChat({ store }: { store: Store }, accountId: string, chatRef: string, query: MessageSearchQuery): Promise<MessageMatches> {
  const limit = Math.min(query.limit ?? searchPageLimits.default, searchPageLimits.max);
  const seq = query.cursor === undefined ? undefined : parseMessageCursor(query.cursor, 'cursor');
  const rows = await store.messages.historyPage({
    accountId,
    chatRef,
    bound: seq === undefined ? undefined : { op: '<', seq },
    order: 'desc',
    limit: limit + 1,
    textContains: query.q,
  });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { messages: page.map(toBffMessage), next_cursor: rows.length > limit && last ? messageCursor(last.seq) : null };
}
