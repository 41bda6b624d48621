import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ChatAnswered, MessageMatches, MessageSearchQuery } from '../../../contract/bff-chat-tools.ts';
import { ChatRefParams } from '../../../contract/bff-chats.ts';
import { MessageHits, MessagesSearchQuery } from '../../../contract/bff-message-search.ts';
import { Envelope } from '../../../contract/envelope.ts';
import { markChatAnswered, searchChat } from '../../core/chats/chat-tools.ts';
import { searchMessages } from '../../core/chats/search-messages.ts';
import type { EmbedSessionRecord } from '../../core/embedding/ports.ts';
import { AppError } from '../../core/errors.ts';
import type { ChatRecord } from '../../core/messages/ports.ts';
import type { BffDeps } from '../deps.ts';
import { assertChatInScope, assertChatsSession, sessionOf } from '../guards.ts';
import { ok, sessionErrors } from '../reply.ts';
import { assertChannelAllowed, assertMayWrite, frameRights } from '../rights.ts';

/** The agent's tools on chats: mark one answered without sending, and search one chat's messages or all of them. */
export const chatToolRoutes: FastifyPluginAsyncTypebox<BffDeps> = async (app, deps) => {
  const tags = ['bff'];

  /** The chat, if the session may see it (card scope, the user's roles); otherwise not found. */
  const visibleChat = async (session: EmbedSessionRecord, chatRef: string, write: boolean): Promise<ChatRecord> => {
    assertChatsSession(session);
    const chat = await deps.store.chats.get(session.accountId, chatRef);
    if (!chat) throw new AppError('CHAT_NOT_FOUND', 'Chat not found');
    assertChatInScope(session, { chat_type: chat.chatType, chat_id: chat.chatId, username: chat.username, phone: chat.phone });
    const rights = await frameRights(deps.store, session);
    assertChannelAllowed(rights, chat.channelId);
    if (write) assertMayWrite(rights, chat.channelId);
    return chat;
  };

  app.post(
    '/chats/:chat_ref/answered',
    {
      schema: {
        tags,
        summary: 'Mark a chat answered without sending',
        description:
          "Sets the chat's unanswered counter to zero, as sending a reply does. Frames hear `chat.answered` and the chat's " +
          '`chat.unanswered_update`. An auditor of the chat\u2019s channel may not (403).',
        params: ChatRefParams,
        response: { 200: Envelope(ChatAnswered), ...sessionErrors },
      },
    },
    async (request) => {
      const session = sessionOf(request);
      const chat = await visibleChat(session, request.params.chat_ref, true);
      return ok(deps.clock, await markChatAnswered(deps, chat, session.user?.id ?? null));
    },
  );

  app.get(
    '/chats/:chat_ref/search',
    {
      schema: {
        tags,
        summary: "Find a chat's messages by text",
        description:
          'Messages of the chat whose text contains `q` (case-insensitive), newest first; pages follow `next_cursor`. ' +
          'Open a match in the history with `around=<message_id>`.',
        params: ChatRefParams,
        querystring: MessageSearchQuery,
        response: { 200: Envelope(MessageMatches), ...sessionErrors },
      },
    },
    async (request) => {
      const session = sessionOf(request);
      const chat = await visibleChat(session, request.params.chat_ref, false);
      return ok(deps.clock, await searchChat(deps, session.accountId, chat.id, request.query));
    },
  );

  app.get(
    '/messages/search',
    {
      schema: {
        tags,
        summary: 'Find messages by their words across chats',
        description:
          'Messages of every chat the session may list (its card, its channels) with a word starting with each word of `q`, ' +
          'in any case; deleted messages never match. Newest first; pages follow `next_cursor`. Each page carries its hits\u2019 ' +
          'chats as the list shows them; open a hit in its chat\u2019s history with `around=<message_id>`.',
        querystring: MessagesSearchQuery,
        response: { 200: Envelope(MessageHits), ...sessionErrors },
      },
    },
    async (request) => {
      const session = sessionOf(request);
      assertChatsSession(session);
      const scope = { accountId: session.accountId, chats: session.scope === 'card' ? session.chats : null, rights: await frameRights(deps.store, session) };
      return ok(deps.clock, await searchMessages(deps, scope, request.query));
    },
  );
};
