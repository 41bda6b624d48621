import type { MessagePage, MessagesQuery } from '../../../../contract/bff-chats.ts';
import type { BffClient } from '../../../lib/bff-client.ts';
import { queryString } from './query.ts';

/** Messages of the newest page; older pages are read in larger steps while the agent scrolls up. */
export const historyPageSizes = { newest: 50, older: 100 } as const;

/** GET /bff/chats/{chat_ref}/messages: one page of a chat's history, oldest first. */
export const getMessages = (client: BffClient, chatRef: string, query: MessagesQuery): Promise<MessagePage> =>
  client.request<MessagePage>('GET', `/chats/${encodeURIComponent(chatRef)}/messages${queryString({ ...query })}`);
