import { notifyManager, QueryClient } from '@tanstack/react-query';
import { BffError } from './bff-client.ts';

/**
 * The frame's server-state cache. What it shows is kept current by the event stream (events are written into
 * the cache), so data does not go stale by age, and the window regaining focus reads nothing again. A refusal
 * of the gateway (4xx) is an answer, not a failure worth repeating; a network error is tried once more.
 */
export function createQueryClient(): QueryClient {
  // An answer is drawn in the task that brought it, not one task later: the frame shares its page's thread with the
  // host page (and anything else queued there), and the agent waits for the first rows and an opened chat.
  notifyManager.setScheduler(queueMicrotask);
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: Infinity,
        refetchOnWindowFocus: false,
        // The stream catches up by itself after a reconnection; what it cannot tell it says with `resync`.
        refetchOnReconnect: false,
        retry: (failures, err) => failures < 1 && !(err instanceof BffError && err.status < 500),
      },
      mutations: { retry: false },
    },
  });
}
