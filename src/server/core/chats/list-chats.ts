import { chatPageLimits, type ChatPage, type ChatsQuery, type UnansweredSummary } from '../../../contract/bff-chats.ts';
import type { ChatRef } from '../../../contract/iframe-links.ts';
import type { Store } from '../ports.ts';
import { withoutPhones } from '../rights/hidden-phones.ts';
import type { FrameRights } from '../rights/visibility.ts';
import { chatCursor, parseChatCursor } from './cursor.ts';
import type { ChatKey } from './ports.ts';
import { toBffChat } from './views.ts';

/** Which chats a reader may list: every chat of the account, or only those of a card. */
export interface ChatReadScope {
  accountId: string;
  /** null: all of the account's chats. */
  chats: ChatRef[] | null;
  /** The reader's rights: the channels it may see, whether phone numbers are hidden from it. */
  rights?: FrameRights | undefined;
}

const channelIdsOf = (scope: ChatReadScope) => (scope.rights?.channels ? [...scope.rights.channels] : null);

/** A chat as the reader may see it: without phone numbers when they are hidden from it. */
export const chatForReader = <T extends object>(scope: Pick<ChatReadScope, 'rights'>, chat: T): T => (scope.rights?.hidePhones ? (withoutPhones(chat) as T) : chat);

/** A card's chat refs as store keys, normalised as embedding/scope.ts compares them (no @, lower case; digits). */
export function chatKeysOf(refs: ChatRef[]): ChatKey[] {
  return refs.flatMap((ref): ChatKey[] => {
    if (ref.chat_id) return [{ chatType: ref.chat_type, kind: 'chat_id', value: ref.chat_id }];
    if (ref.username) return [{ chatType: ref.chat_type, kind: 'username', value: ref.username.replace(/^@/, '').toLowerCase() }];
    if (ref.phone) return [{ chatType: ref.chat_type, kind: 'phone', value: ref.phone.replace(/\D/g, '') }];
    return [];
  });
}

/**
 * The chat list: chats with unanswered messages first, then by last activity, in keyset pages. A chat whose
 * activity changes while the reader pages may move between pages; the realtime stream keeps the list current.
 */
export async function listChats({ store }: { store: Store }, scope: ChatReadScope, query: ChatsQuery): Promise<ChatPage> {
  const limit = Math.min(query.limit ?? chatPageLimits.default, chatPageLimits.max);
  const rows = await store.chats.listPage({
    accountId: scope.accountId,
    only: scope.chats === null ? null : chatKeysOf(scope.chats),
    channelId: query.channel_id,
    channelIds: channelIdsOf(scope),
    search: query.q?.trim() || undefined,
    searchNumbersWhole: scope.rights?.hidePhones === true,
    after: query.cursor === undefined ? undefined : parseChatCursor(query.cursor, 'cursor'),
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { chats: page.map((row) => chatForReader(scope, toBffChat(row))), next_cursor: rows.length > limit && last ? chatCursor(last.position) : null };
}

/** What the host's badge shows when the frame opens: unanswered messages over the reader's chats. */
export function unansweredSummary({ store }: { store: Store }, scope: ChatReadScope): Promise<UnansweredSummary> {
  return store.chats.unansweredTotals({ accountId: scope.accountId, only: scope.chats === null ? null : chatKeysOf(scope.chats), channelIds: channelIdsOf(scope) });
}
