import { useInfiniteQuery } from '@tanstack/react-query';
import type { MessageHits } from '../../../../contract/bff-message-search.ts';
import { searchTerms } from '../../../../contract/search-terms.ts';
import type { BffClient } from '@/lib/bff-client.ts';
import { useEmbed } from '@/lib/embed-context.tsx';
import { queryString } from './query.ts';

/** GET /bff/messages/search: messages of all the session's chats with the query's words, newest first. */
export const searchAllMessages = (client: BffClient, q: string, cursor: string | null): Promise<MessageHits> =>
  client.request<MessageHits>('GET', `/messages/search${queryString({ q, cursor: cursor ?? undefined })}`);

/**
 * The chat list's message hits for its search, a page at a time. Nothing is asked for a query without a word
 * (punctuation alone), which the server would answer with nothing. Asked again whenever the list shows them, so
 * messages that arrived meanwhile are found.
 */
export function useMessageSearch(q: string) {
  const { client } = useEmbed();
  return useInfiniteQuery({
    queryKey: ['messages', 'search', q] as const,
    queryFn: ({ pageParam }) => searchAllMessages(client, q, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    enabled: searchTerms(q).length > 0,
    staleTime: 0,
  });
}
