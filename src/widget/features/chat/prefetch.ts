import type { QueryClient } from '@tanstack/react-query';
import type { BffClient } from '@/lib/bff-client.ts';
import { channelsQuery } from './api/get-channels.ts';
import { chatListQuery } from './api/get-chats.ts';
import { unansweredQuery } from './api/get-unanswered.ts';

/**
 * What the chat screen shows first, its chat list, asked for as soon as the frame holds its session token:
 * alongside the session's own details and while the screen's code starts, rather than once the screen has
 * rendered. The screen's query then takes up this answer, or the request still on its way. What the first rows do
 * not need (the channels, the unanswered totals) is asked for once the list is in and drawn (the task after the one
 * that drew it), so as not to hold it up: on the embedded database their queries would take turns with the list's.
 */
export function prefetchChatScreen(queryClient: QueryClient, client: BffClient): void {
  void queryClient.prefetchInfiniteQuery(chatListQuery(client, '')).then(() =>
    setTimeout(() => {
      void queryClient.prefetchQuery(channelsQuery(client));
      void queryClient.prefetchQuery(unansweredQuery(client));
    }, 0),
  );
}
