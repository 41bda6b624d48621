import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope } from '../../../contract/envelope.ts';
import { FrameSendResult } from '../../../contract/bff-chats.ts';
import { EditMessageBody, MessageIdParams, MessageRef, ReactionBody, SendMessageBody } from '../../../contract/messages.ts';
import type { EmbedSessionRecord } from '../../core/embedding/ports.ts';
import { chatInScope } from '../../core/embedding/scope.ts';
import { AppError } from '../../core/errors.ts';
import { acceptCaptioned } from '../../core/messages/captioned-send.ts';
import { deleteMessage, editMessage } from '../../core/messages/edit-delete.ts';
import { reactToMessage } from '../../core/messages/reactions.ts';
import type { BffDeps } from '../deps.ts';
import { assertChatInScope, assertChatsSession, routedChat, sessionOf } from '../guards.ts';
import { ok, sessionErrors } from '../reply.ts';
import { assertChannelAllowed, assertMayWrite, frameRights } from '../rights.ts';
import { chatRefOfHidden, hiddenChatId } from '../../core/rights/hidden-phones.ts';

/** The frame writes as its CRM user: the author is the session's, never one the frame names. */
const FrameSendBody = Type.Omit(SendMessageBody, ['crm_user_id'], { additionalProperties: false });
const FrameEditBody = Type.Omit(EditMessageBody, ['crm_user_id'], { additionalProperties: false });

/**
 * Sending (with a quote, or a file with its caption), editing and deleting from the chat frame: the same use-cases as
 * /v2/messages, within the session's chats. A message of a chat outside a card session is reported as not found.
 */
export const messageRoutes: FastifyPluginAsyncTypebox<BffDeps> = async (app, deps) => {
  const tags = ['bff'];

  const assertMessageInScope = async (session: EmbedSessionRecord, messageId: string) => {
    assertChatsSession(session);
    const message = await deps.store.messages.get(session.accountId, messageId);
    const chat = message && (await deps.store.chats.get(session.accountId, message.chatRef));
    if (!chat || !chatInScope(session, { chat_type: chat.chatType, chat_id: chat.chatId, username: chat.username, phone: chat.phone })) {
      throw new AppError('MESSAGE_NOT_FOUND', 'Message not found');
    }
    const rights = await frameRights(deps.store, session);
    assertChannelAllowed(rights, chat.channelId, 'MESSAGE_NOT_FOUND');
    assertMayWrite(rights, chat.channelId);
  };

  app.post(
    '/messages',
    {
      schema: {
        tags,
        summary: 'Send a message (optionally quoting one) as the session user',
        description:
          'As POST /v2/messages, but `text` may come with `attachment`: a file and its caption. Where the messenger shows a caption under such a file they go as one message; else the file, then the words as a message of their own (`caption_request_id`).',
        body: FrameSendBody,
        response: { 201: Envelope(FrameSendResult), ...sessionErrors },
      },
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const { channel_id: channelId } = request.body;
      const rights = await frameRights(deps.store, session);
      assertChannelAllowed(rights, channelId);
      assertMayWrite(rights, channelId);
      // A user who sees no phone numbers names a numbered chat by the stand-in the list gave it.
      const hiddenRef = chatRefOfHidden(request.body.recipient.chat_id);
      const hidden = hiddenRef === undefined ? undefined : await deps.store.chats.get(session.accountId, hiddenRef);
      if (hiddenRef !== undefined && (!hidden?.chatId || hidden.channelId !== channelId)) throw new AppError('CHAT_NOT_FOUND', 'Chat not found');
      const recipient = hidden ? { ...request.body.recipient, chat_id: hidden.chatId! } : request.body.recipient;
      // A card may name a chat by username or phone while the frame names it by chat_id: the stored chat joins them.
      assertChatInScope(session, await routedChat(deps.store.chats, session.accountId, channelId, recipient));
      if (request.body.quoted_message_id) await assertMessageInScope(session, request.body.quoted_message_id);
      const body = { ...request.body, recipient, ...(session.user ? { crm_user_id: session.user.id } : {}) };
      const accepted = await acceptCaptioned(deps.messages, session.accountId, body);
      return reply.code(201).send(ok(deps.clock, hidden ? { ...accepted, chat_id: hiddenChatId(hidden.id) } : accepted));
    },
  );

  app.patch(
    '/messages/:message_id',
    {
      schema: { tags, summary: 'Edit a message', params: MessageIdParams, body: FrameEditBody, response: { 200: Envelope(MessageRef), ...sessionErrors } },
    },
    async (request) => {
      const session = sessionOf(request);
      await assertMessageInScope(session, request.params.message_id);
      const body = { ...request.body, ...(session.user ? { crm_user_id: session.user.id } : {}) };
      return ok(deps.clock, await editMessage(deps.messages, session.accountId, request.params.message_id, body));
    },
  );

  app.delete(
    '/messages/:message_id',
    { schema: { tags, summary: 'Delete a message', params: MessageIdParams, response: { 200: Envelope(MessageRef), ...sessionErrors } } },
    async (request) => {
      const session = sessionOf(request);
      await assertMessageInScope(session, request.params.message_id);
      return ok(deps.clock, await deleteMessage(deps.messages, session.accountId, request.params.message_id));
    },
  );

  app.put(
    '/messages/:message_id/reaction',
    {
      schema: {
        tags,
        summary: "Set (or with `emoji: null` take back) the account's reaction to a message",
        params: MessageIdParams,
        body: ReactionBody,
        response: { 200: Envelope(Type.Object({ message_id: Type.String({ format: 'uuid' }) })), ...sessionErrors },
      },
    },
    async (request) => {
      const session = sessionOf(request);
      await assertMessageInScope(session, request.params.message_id);
      await reactToMessage(deps.messages, session.accountId, request.params.message_id, request.body.emoji, session.user?.id ?? null);
      return ok(deps.clock, { message_id: request.params.message_id });
    },
  );
};
