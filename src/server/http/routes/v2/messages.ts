import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope } from '../../../../contract/envelope.ts';
import { ErrorBody } from '../../../../contract/errors.ts';
import { EditMessageBody, MessageIdParams, MessageRef, SendMessageBody, SendMessageResult } from '../../../../contract/messages.ts';
import { acceptMessage } from '../../../core/messages/accept-message.ts';
import { deleteMessage, editMessage } from '../../../core/messages/edit-delete.ts';
import type { MessageDeps } from '../../../core/messages/ports.ts';
import { accountOf } from '../../plugins/auth.ts';
import { envelope } from '../../envelope.ts';
import { withNotFound } from '../errors.ts';

const responses = { ...withNotFound, 409: ErrorBody } as const;

/** Sending, editing and deleting messages; sidecar keys may use all three. */
export const messageRoutes: FastifyPluginAsyncTypebox<MessageDeps> = async (app, deps) => {
  const tags = ['messages'];
  const config = { access: 'sidecar' } as const;

  app.post(
    '/messages',
    {
      config,
      schema: {
        tags,
        summary: 'Send a message',
        description:
          'Answers 201 once the message is stored and queued; the outcome arrives as `message.status_update` ' +
          '(`sent`, `delivered`, `read`, or `failed` with a reason). One of text, attachment, template; a recipient by `chat_id`, or for ' +
          'telegram and max by `username` or `phone` (then `chat_id` is null here and arrives in `message.add`). A channel that is not ' +
          'active answers 409 CHANNEL_WRONG_STATUS.',
        body: SendMessageBody,
        response: { 201: Envelope(SendMessageResult), ...responses },
      },
    },
    async (request, reply) => reply.code(201).send(envelope(deps.clock, await acceptMessage(deps, accountOf(request).accountId, request.body))),
  );

  app.patch(
    '/messages/:message_id',
    {
      config,
      schema: {
        tags,
        summary: 'Edit a message',
        description:
          'Within 15 minutes after delivery (400 MESSAGES_EDITING_TIME_EXPIRED after), on transports that edit (400 ' +
          'CHANNEL_INVALID_TRANSPORT_FOR_EDITING); whatsapp edits text only (CHANNEL_INVALID_TRANSPORT_FOR_CONTENT_EDITING); a max-bot ' +
          'message with a keyboard cannot be edited (MESSAGES_CONTAIN_BUTTONS); text over the transport\'s limit is a 400 VALIDATION_ERROR. ' +
          'Through an active channel only (else 409 CHANNEL_WRONG_STATUS). Sends `message.edit`.',
        params: MessageIdParams,
        body: EditMessageBody,
        response: { 200: Envelope(MessageRef), ...responses },
      },
    },
    async (request) => envelope(deps.clock, await editMessage(deps, accountOf(request).accountId, request.params.message_id, request.body)),
  );

  app.delete(
    '/messages/:message_id',
    {
      config,
      schema: {
        tags,
        summary: 'Delete a message',
        description:
          'On whatsapp, telegram and max channels and their bots (else 400 CHANNEL_INVALID_TRANSPORT_FOR_DELETION), through an active ' +
          'channel (else 409 CHANNEL_WRONG_STATUS). The message is kept ' +
          'with a deleted mark for history and export. Sends `message.delete`.',
        params: MessageIdParams,
        response: { 200: Envelope(MessageRef), ...responses },
      },
    },
    async (request) => envelope(deps.clock, await deleteMessage(deps, accountOf(request).accountId, request.params.message_id)),
  );
};
