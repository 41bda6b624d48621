import type { QueryClient } from '@tanstack/react-query';
import type { BffClient } from '@/lib/bff-client.ts';
import { channelsQuery } from './api/get-channels.ts';
import { chatListQuery } from './api/get-chats.ts';
import { unansweredQuery } from './api/get-unanswered.ts';

/**
 * What the chat screen reads first (the chat list, the channels, the unanswered totals), asked for as soon as
 * the frame holds its session token: alongside the session's own details and while the screen's code starts,
 * rather than once the screen has rendered. The screen's queries then take up these answers, or the requests
 * still on their way.
 */
export function prefetchChatScreen(queryClient: QueryClient, client: BffClient): void {
  void queryClient.prefetchInfiniteQuery(chatListQuery(client, ''));
  void queryClient.prefetchQuery(channelsQuery(client));
  void queryClient.prefetchQuery(unansweredQuery(client));
}
