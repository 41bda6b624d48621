import { queryOptions, useIsFetching, useQuery } from '@tanstack/react-query';
import type { Static } from 'typebox';
import type { ChatCrmCard } from '../../../../contract/crm-entities.ts';
import type { BffClient } from '@/lib/bff-client.ts';
import { useEmbed } from '@/lib/embed-context.tsx';
import { useScheduledFlag, whenIdle } from '@/lib/when-idle.ts';
import { historyKeys } from './get-messages.ts';

export type ChatCrm = Static<typeof ChatCrmCard>;

export const chatCrmKeys = { all: ['crm'] as const, chat: (chatRef: string) => ['crm', 'chat', chatRef] as const };

/** GET /bff/chats/{chat_ref}/crm: the chat's contact in the CRM (null when none owns the chat) and its open deals. */
export const getChatCrm = (client: BffClient, chatRef: string): Promise<ChatCrm> =>
  client.request<ChatCrm>('GET', `/chats/${encodeURIComponent(chatRef)}/crm`);

/** The CRM creates records on its own time, after the agent asked: read again now and then while the chat is open. */
const crmRefreshMs = 30_000;

export const chatCrmQuery = (client: BffClient, chatRef: string) =>
  queryOptions({ queryKey: chatCrmKeys.chat(chatRef), queryFn: () => getChatCrm(client, chatRef), refetchInterval: crmRefreshMs });

/**
 * The chat's CRM card, asked for once its history is read and drawn: the newest messages are what the agent opened
 * the chat for, on the embedded database the two requests' queries would take turns, and the card's answer coming
 * while the history is laid out would hold it up.
 */
export function useChatCrm(chatRef: string) {
  const { client } = useEmbed();
  const readingHistory = useIsFetching({ queryKey: historyKeys.chat(chatRef) }) > 0;
  const drawn = useScheduledFlag(!readingHistory, whenIdle);
  return useQuery({ ...chatCrmQuery(client, chatRef), enabled: drawn && !readingHistory });
}
