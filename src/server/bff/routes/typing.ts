import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ChatRefParams } from '../../../contract/bff-chats.ts';
import { AppError } from '../../core/errors.ts';
import { showTyping } from '../../core/messages/typing.ts';
import type { BffDeps } from '../deps.ts';
import { assertChatInScope, assertChatsSession, sessionOf } from '../guards.ts';
import { sessionErrors } from '../reply.ts';
import { assertChannelAllowed, assertMayWrite, frameRights } from '../rights.ts';

/** The agent types in a chat: the frame says so every few seconds while they do, and the customer is shown it. */
export const typingRoutes: FastifyPluginAsyncTypebox<BffDeps> = async (app, deps) => {
  app.post(
    '/chats/:chat_ref/typing',
    {
      schema: {
        tags: ['bff'],
        summary: 'Show the customer that the agent is typing (where the messenger has it)',
        description: 'Lasts a few seconds on the messenger: the frame sends it again, at most every 4 seconds, while the agent types. 204 also where nothing can be shown.',
        params: ChatRefParams,
        response: { 204: Type.Null({ description: 'Told, where the messenger shows typing.' }), ...sessionErrors },
      },
    },
    async (request, reply) => {
      const session = sessionOf(request);
      assertChatsSession(session);
      const [chat, rights] = await Promise.all([deps.store.chats.get(session.accountId, request.params.chat_ref), frameRights(deps.store, session)]);
      if (!chat) throw new AppError('CHAT_NOT_FOUND', 'Chat not found');
      assertChatInScope(session, { chat_type: chat.chatType, chat_id: chat.chatId, username: chat.username, phone: chat.phone });
      assertChannelAllowed(rights, chat.channelId);
      assertMayWrite(rights, chat.channelId);
      await showTyping(deps.messages, session.accountId, chat.id);
      return reply.code(204).send(null);
    },
  );
};
