import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChatAnswered, MessageMatches } from '../../../../contract/bff-chat-tools.ts';
import type { BffClient } from '@/lib/bff-client.ts';
import { useEmbed } from '@/lib/embed-context.tsx';
import { chatListKeys, type ChatListData } from './get-chats.ts';
import { unansweredKeys } from './get-unanswered.ts';
import { queryString } from './query.ts';

/** POST /bff/chats/{chat_ref}/answered: the chat stops waiting for an answer, with nothing sent. */
export const markAnswered = (client: BffClient, chatRef: string): Promise<ChatAnswered> =>
  client.request<ChatAnswered>('POST', `/chats/${encodeURIComponent(chatRef)}/answered`);

/** GET /bff/chats/{chat_ref}/search: the chat's messages containing `q`, newest first. */
export const searchMessages = (client: BffClient, chatRef: string, q: string, cursor: string | null): Promise<MessageMatches> =>
  client.request<MessageMatches>('GET', `/chats/${encodeURIComponent(chatRef)}/search${queryString({ q, cursor: cursor ?? undefined })}`);

/**
 * Marks a chat answered. The list's row and the totals change at once; the stream's `chat.unanswered_update`
 * then confirms it here and tells the other frames.
 */
export function useMarkAnswered(chatRef: string) {
  const { client } = useEmbed();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => markAnswered(client, chatRef),
    onSuccess: () => {
      queryClient.setQueriesData<ChatListData>({ queryKey: chatListKeys.all }, (data) =>
        data && {
          ...data,
          pages: data.pages.map((page) => ({ ...page, chats: page.chats.map((c) => (c.chat_ref === chatRef ? { ...c, unanswered_count: 0 } : c)) })),
        },
      );
      void queryClient.invalidateQueries({ queryKey: unansweredKeys.summary });
    },
  });
}

/** Matches of a search inside one chat, a page at a time; nothing is asked while `q` is empty. */
export function useChatSearch(chatRef: string, q: string) {
  const { client } = useEmbed();
  return useInfiniteQuery({
    queryKey: ['chat-search', chatRef, q] as const,
    queryFn: ({ pageParam }) => searchMessages(client, chatRef, q, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    enabled: q !== '',
    staleTime: 0,
  });
}
