import type { ChatPage, ChatsQuery } from '../../../../contract/bff-chats.ts';
import type { BffClient } from '../../../lib/bff-client.ts';
import { queryString } from './query.ts';

/** GET /bff/chats: the session's chats, unanswered first, in keyset pages. */
export const getChats = (client: BffClient, query: ChatsQuery): Promise<ChatPage> =>
  client.request<ChatPage>('GET', `/chats${queryString({ q: query.q?.trim(), channel_id: query.channel_id, cursor: query.cursor, limit: query.limit })}`);
