import type { QueryClient } from '@tanstack/react-query';
import type { BffClient } from '@/lib/bff-client.ts';
import { chatListQuery } from './api/get-chats.ts';

/**
 * What the chat screen shows first, its chat list, asked for as soon as the frame holds its session token:
 * alongside the session's own details and while the screen's code starts, rather than once the screen has
 * rendered. The screen's query then takes up this answer, or the request still on its way. What the first rows do
 * not need (the channels, the unanswered totals) is left to the screen, so as not to hold the list up.
 */
export function prefetchChatScreen(queryClient: QueryClient, client: BffClient): void {
  void queryClient.prefetchInfiniteQuery(chatListQuery(client, ''));
}
