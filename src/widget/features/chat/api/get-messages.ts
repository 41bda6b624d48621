import { infiniteQueryOptions, useInfiniteQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { MessagePage, MessagesQuery } from '../../../../contract/bff-chats.ts';
import type { BffClient } from '@/lib/bff-client.ts';
import { useEmbed } from '@/lib/embed-context.tsx';
import { fromBff } from '../store/message.ts';
import type { NamedChat } from '../store/scope.ts';
import { historyOf, keepUnsent, pendingPatches, type HistoryData, type HistoryPage } from './history-cache.ts';
import { queryString } from './query.ts';

/** Messages of the newest page; older pages are read in larger steps while the agent scrolls up. */
export const historyPageSizes = { newest: 50, older: 100 } as const;

/**
 * A chat's history in the cache: by `chat_ref`, or for a chat nobody wrote to yet (opened by the host to write
 * first) by how the messenger names it, until the first message makes it a chat of the gateway's.
 */
export const historyKeys = {
  all: ['messages'] as const,
  chat: (chatRef: string) => ['messages', chatRef] as const,
  draft: (chat: NamedChat & { channel_id: string | null }) =>
    ['messages', `new:${chat.channel_id ?? ''}:${chat.chat_type}:${chat.chat_id ?? chat.username ?? chat.phone ?? ''}`] as const,
};

/** Which chat a history query is of, so events that name a chat by its messenger ids find their history. */
export interface HistoryMeta extends Record<string, unknown> {
  chat: NamedChat & { channel_id: string | null };
}

/** GET /bff/chats/{chat_ref}/messages: one page of a chat's history, oldest first. */
export const getMessages = (client: BffClient, chatRef: string, query: MessagesQuery): Promise<MessagePage> =>
  client.request<MessagePage>('GET', `/chats/${encodeURIComponent(chatRef)}/messages${queryString({ ...query })}`);

/** A page as the history keeps it, with what events said of its messages before it came. */
export const historyPage = (queryClient: QueryClient, page: MessagePage): HistoryPage => ({
  messages: page.messages.map((m) => pendingPatches(queryClient).apply(fromBff(m))),
  older_cursor: page.older_cursor,
});

export const historyQuery = (client: BffClient, queryClient: QueryClient, chatRef: string) =>
  infiniteQueryOptions({
    queryKey: historyKeys.chat(chatRef),
    queryFn: async ({ pageParam }): Promise<HistoryPage> => {
      const older = pageParam !== null;
      const page = historyPage(queryClient, await getMessages(client, chatRef, older ? { before: pageParam, limit: historyPageSizes.older } : { limit: historyPageSizes.newest }));
      // The newest page read again keeps what this frame is still sending.
      return older ? page : keepUnsent(page, queryClient.getQueryData<HistoryData>(historyKeys.chat(chatRef)));
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.older_cursor,
    select: historyOf,
  });

/** An empty history, for a chat without messages yet. */
export const emptyHistory = (): HistoryData => ({ pages: [{ messages: [], older_cursor: null }], pageParams: [null] });

/**
 * The history of one chat: the newest page first, older pages as the agent scrolls up. A chat without a
 * `chat_ref` has none to read: what this frame sends to it shows here.
 */
export function useHistory(chat: NamedChat & { chat_ref: string | null; channel_id: string | null }) {
  const { client } = useEmbed();
  const queryClient = useQueryClient();
  const meta: HistoryMeta = { chat };
  const options = chat.chat_ref
    ? { ...historyQuery(client, queryClient, chat.chat_ref), meta }
    : { ...historyQuery(client, queryClient, ''), queryKey: historyKeys.draft(chat), enabled: false, initialData: emptyHistory(), meta };
  return useInfiniteQuery(options);
}
