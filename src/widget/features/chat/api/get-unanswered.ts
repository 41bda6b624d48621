import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UnansweredSummary } from '../../../../contract/bff-chats.ts';
import type { BffClient } from '@/lib/bff-client.ts';
import { useEmbed } from '@/lib/embed-context.tsx';
import { useFirstListDrawn } from './get-chats.ts';

export const unansweredKeys = { summary: ['chats', 'unanswered'] as const };

/** GET /bff/chats/unanswered: unanswered messages, and chats waiting, over all of the session's chats. */
export const getUnanswered = (client: BffClient): Promise<UnansweredSummary> => client.request<UnansweredSummary>('GET', '/chats/unanswered');

export const unansweredQuery = (client: BffClient) => queryOptions({ queryKey: unansweredKeys.summary, queryFn: () => getUnanswered(client) });

/** The server's totals, read when the frame opens (once its chat list is drawn) and again whenever a chat's count changes. */
export function useUnanswered() {
  const { client } = useEmbed();
  return useQuery({ ...unansweredQuery(client), enabled: useFirstListDrawn() });
}
