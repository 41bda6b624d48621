import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ChatPage, ChatRefParams, ChatsQuery, MessagePage, MessagesQuery, UnansweredSummary } from '../../../contract/bff-chats.ts';
import { Envelope } from '../../../contract/envelope.ts';
import { chatHistory } from '../../core/chats/chat-history.ts';
import { listChats, unansweredSummary, type ChatReadScope } from '../../core/chats/list-chats.ts';
import type { EmbedSessionRecord } from '../../core/embedding/ports.ts';
import { AppError } from '../../core/errors.ts';
import type { BffDeps } from '../deps.ts';
import { assertChatInScope, assertChatsSession, sessionOf } from '../guards.ts';
import { ok, sessionErrors } from '../reply.ts';
import { assertChannelAllowed, frameRights } from '../rights.ts';

/**
 * Reading chats from the chat frame: the list (a card session's own chats, a global session's every chat of
 * the account) and a chat's history. A chat outside the session is reported as not found.
 */
export const chatRoutes: FastifyPluginAsyncTypebox<BffDeps> = async (app, deps) => {
  const tags = ['bff'];
  const readScope = async (session: EmbedSessionRecord): Promise<ChatReadScope> => {
    assertChatsSession(session);
    return { accountId: session.accountId, chats: session.scope === 'card' ? session.chats : null, rights: await frameRights(deps.store, session) };
  };

  app.get(
    '/chats',
    {
      schema: {
        tags,
        summary: "The session's chats, unanswered first",
        description:
          'Chats with unanswered messages first, then the rest, each group by last activity (newest first). `q` searches the ' +
          'contact name (CRM or messenger), username, phone, chat id and last message text, case-insensitively. Pages follow ' +
          '`next_cursor`. A card session lists only the chats of its card; a user with roles (GET /v2/settings) only the chats of their channels; ' +
          'a user who may see no phone numbers gets them masked, and the chat id of numbered chats as `hidden:<chat_ref>`.',
        querystring: ChatsQuery,
        response: { 200: Envelope(ChatPage), ...sessionErrors },
      },
    },
    async (request) => ok(deps.clock, await listChats(deps, await readScope(sessionOf(request)), request.query)),
  );

  app.get(
    '/chats/unanswered',
    {
      schema: {
        tags,
        summary: "Unanswered messages over the session's chats",
        description: 'For the host’s badge when the frame opens; afterwards `chat.unanswered_update` keeps it current.',
        response: { 200: Envelope(UnansweredSummary), ...sessionErrors },
      },
    },
    async (request) => ok(deps.clock, await unansweredSummary(deps, await readScope(sessionOf(request)))),
  );

  app.get(
    '/chats/:chat_ref/messages',
    {
      schema: {
        tags,
        summary: "A chat's history",
        description:
          'Messages oldest first. Without a cursor: the newest `limit`. `before` / `after` take `older_cursor` / `newer_cursor` ' +
          'of a page; `around` (a message id) gives a window with that message in the middle. At most one of the three.',
        params: ChatRefParams,
        querystring: MessagesQuery,
        response: { 200: Envelope(MessagePage), ...sessionErrors },
      },
    },
    async (request) => {
      const session = sessionOf(request);
      assertChatsSession(session);
      // Both at once: on PostgreSQL they overlap; the embedded database runs them back to back either way.
      const [chat, rights] = await Promise.all([deps.store.chats.get(session.accountId, request.params.chat_ref), frameRights(deps.store, session)]);
      if (!chat) throw new AppError('CHAT_NOT_FOUND', 'Chat not found');
      assertChatInScope(session, { chat_type: chat.chatType, chat_id: chat.chatId, username: chat.username, phone: chat.phone });
      assertChannelAllowed(rights, chat.channelId);
      return ok(deps.clock, await chatHistory(deps, session.accountId, chat.id, request.query));
    },
  );
};
