import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { BffMessage } from '../../../../contract/bff-chats.ts';
import { Envelope } from '../../../../contract/envelope.ts';
import { ErrorBody } from '../../../../contract/errors.ts';
import { MessageIdParams, ReactionBody } from '../../../../contract/messages.ts';
import { SandboxChatParams } from '../../../../contract/sandbox.ts';
import type { MessageDeps } from '../../../core/messages/ports.ts';
import { sandboxChatMessages, sandboxCustomerDelete, sandboxCustomerReact } from '../../../core/sandbox/sandbox-phone.ts';
import { accountOf } from '../../plugins/auth.ts';
import { envelope } from '../../envelope.ts';
import { withNotFound } from '../errors.ts';

/** What the sandbox phone needs beyond writing: a customer taking a message back, and the chat as the customer sees it. */
export const sandboxPhoneRoutes: FastifyPluginAsyncTypebox<MessageDeps> = async (app, deps) => {
  const tags = ['sandbox'];

  app.post(
    '/sandbox/messages/:message_id/delete',
    {
      schema: {
        tags,
        summary: 'A customer deletes a message they wrote',
        description:
          'On transports whose messages can be deleted, the inbound message is kept with a deleted mark and `message.delete` is sent (`crm_user_id` null), ' +
          'as a live platform reports a customer’s deletion. Other transports answer 400 `CHANNEL_INVALID_TRANSPORT_FOR_DELETION`; an outbound message ' +
          '`VALIDATION_ERROR`; a channel that is not active 409 `CHANNEL_WRONG_STATUS`.',
        params: MessageIdParams,
        response: { 200: Envelope(Type.Object({ message_id: Type.String({ format: 'uuid' }), chat_id: Type.Union([Type.String(), Type.Null()]) })), ...withNotFound, 409: ErrorBody },
      },
    },
    async (request) => envelope(deps.clock, await sandboxCustomerDelete(deps, accountOf(request).accountId, request.params.message_id)),
  );

  app.post(
    '/sandbox/messages/:message_id/reaction',
    {
      schema: {
        tags,
        summary: 'A customer reacts to a message',
        description:
          'The chat’s customer sets an emoji reaction to a message of the chat (either side’s), or takes it back with `emoji: null`; ' +
          '`message.reaction` is sent (`by: customer`) to subscribers of that event and to the frames, as a live platform reports a reaction. ' +
          'Transports without reactions answer 400 `CHANNEL_INVALID_TRANSPORT_FOR_REACTIONS`; a channel that is not active 409 `CHANNEL_WRONG_STATUS`.',
        params: MessageIdParams,
        body: ReactionBody,
        response: { 200: Envelope(Type.Object({ message_id: Type.String({ format: 'uuid' }), chat_id: Type.Union([Type.String(), Type.Null()]) })), ...withNotFound, 409: ErrorBody },
      },
    },
    async (request) => envelope(deps.clock, await sandboxCustomerReact(deps, accountOf(request).accountId, request.params.message_id, request.body.emoji)),
  );

  app.get(
    '/sandbox/channels/:channel_id/chats/:chat_type/:chat_id/messages',
    {
      schema: {
        tags,
        summary: 'The chat as the customer’s phone shows it',
        description: 'The newest 50 messages of the chat, oldest first, both ways, with their status; an unknown chat is empty.',
        params: SandboxChatParams,
        response: { 200: Envelope(Type.Array(BffMessage)), ...withNotFound },
      },
    },
    async (request) => {
      const { channel_id, chat_type, chat_id } = request.params;
      return envelope(deps.clock, await sandboxChatMessages(deps, accountOf(request).accountId, channel_id, chat_type, chat_id));
    },
  );
};
