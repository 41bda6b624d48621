import { infiniteQueryOptions, useInfiniteQuery, useIsFetching, type InfiniteData } from '@tanstack/react-query';
import type { BffChat, ChatPage, ChatsQuery } from '../../../../contract/bff-chats.ts';
import type { BffClient } from '@/lib/bff-client.ts';
import { useEmbed } from '@/lib/embed-context.tsx';
import { afterPaint, useScheduledFlag } from '@/lib/when-idle.ts';
import { queryString } from './query.ts';

export type ChatListData = InfiniteData<ChatPage, string | null>;

/** The chat lists in the cache, one per search; `all` covers every one of them. */
export const chatListKeys = {
  all: ['chats', 'list'] as const,
  search: (q: string) => ['chats', 'list', q] as const,
};

/** GET /bff/chats: the session's chats, unanswered first, in keyset pages. */
export const getChats = (client: BffClient, query: ChatsQuery): Promise<ChatPage> =>
  client.request<ChatPage>('GET', `/chats${queryString({ q: query.q?.trim(), channel_id: query.channel_id, cursor: query.cursor, limit: query.limit })}`);

/** The server's order: (has unanswered, last activity, chat_ref), all descending. */
export function compareChats(a: BffChat, b: BffChat): number {
  const unanswered = Number(b.unanswered_count > 0) - Number(a.unanswered_count > 0);
  if (unanswered !== 0) return unanswered;
  const activity = Date.parse(b.last_activity_at) - Date.parse(a.last_activity_at);
  if (activity !== 0) return activity;
  return a.chat_ref < b.chat_ref ? 1 : a.chat_ref > b.chat_ref ? -1 : 0;
}

/** The loaded pages as one list in the server's order (events change rows in place, so they are sorted again). */
export function chatsOf(data: ChatListData): BffChat[] {
  const byRef = new Map<string, BffChat>();
  for (const page of data.pages) for (const chat of page.chats) byRef.set(chat.chat_ref, chat);
  return [...byRef.values()].sort(compareChats);
}

export const chatListQuery = (client: BffClient, q: string) =>
  infiniteQueryOptions({
    queryKey: chatListKeys.search(q),
    queryFn: ({ pageParam }) => getChats(client, { q: q || undefined, cursor: pageParam ?? undefined }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
  });

/** The chat list of a search ('' for all), page by page as the agent asks for more. */
export function useChatList(q: string) {
  const { client } = useEmbed();
  return useInfiniteQuery({ ...chatListQuery(client, q), select: chatsOf });
}

/**
 * Whether the chat list the screen opens with is in and painted. What the first rows do not need (the channels, the
 * unanswered totals) waits for it: on the embedded database their queries would take turns with the list's, and
 * their requests would be sent while the rows are being drawn. (The frame's start asks for them right after the
 * list's answer is drawn: see prefetchChatScreen.)
 */
export function useFirstListDrawn(): boolean {
  return useScheduledFlag(useIsFetching({ queryKey: chatListKeys.search('') }) === 0, afterPaint);
}
