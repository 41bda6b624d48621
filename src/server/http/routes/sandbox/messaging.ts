import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ChannelIdParams } from '../../../../contract/channel-api.ts';
import { Envelope } from '../../../../contract/envelope.ts';
import { ErrorBody } from '../../../../contract/errors.ts';
import { MessageIdParams } from '../../../../contract/messages.ts';
import { CustomerBody, CustomerEditBody, InboundBody, InboundResult, MessageStatusBody, MessageStatusResult } from '../../../../contract/sandbox.ts';
import type { MessageDeps } from '../../../core/messages/ports.ts';
import { sandboxCustomer, sandboxCustomerEdit, sandboxInbound, sandboxMessageStatus } from '../../../core/sandbox/sandbox-messaging.ts';
import { accountOf } from '../../plugins/auth.ts';
import { envelope } from '../../envelope.ts';
import { withNotFound } from '../errors.ts';

const responses = { ...withNotFound, 409: ErrorBody } as const;

/** The customers of the sandbox network: they write, block, do not exist, receive and read. */
export const sandboxMessagingRoutes: FastifyPluginAsyncTypebox<MessageDeps> = async (app, deps) => {
  const tags = ['sandbox'];
  const params = ChannelIdParams;

  app.post(
    '/sandbox/channels/:channel_id/inbound',
    {
      schema: {
        tags,
        summary: 'A customer writes to the channel',
        description: 'Creates the chat on first contact and sends `message.add`; a bot may answer this customer from now on.',
        params,
        body: InboundBody,
        response: { 201: Envelope(InboundResult), ...responses },
      },
    },
    async (request, reply) =>
      reply.code(201).send(envelope(deps.clock, await sandboxInbound(deps, accountOf(request).accountId, request.params.channel_id, request.body))),
  );

  app.post(
    '/sandbox/channels/:channel_id/phone-send',
    {
      schema: {
        tags,
        summary: 'The owner writes from the phone itself',
        description: 'An outbound message the gateway did not send: `message.add` with direction outbound; resets the unanswered counter.',
        params,
        body: InboundBody,
        response: { 201: Envelope(InboundResult), ...responses },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(envelope(deps.clock, await sandboxInbound(deps, accountOf(request).accountId, request.params.channel_id, request.body, 'outbound'))),
  );

  app.post(
    '/sandbox/channels/:channel_id/customers',
    {
      schema: {
        tags,
        summary: 'A customer blocks the channel or does not exist',
        description: 'Sends to a `blocked` customer fail with `chat_is_blocked`; to a `missing` one with `bad_contact` (or `contact_can_not_create` on telegram and max).',
        params,
        body: CustomerBody,
        response: { 200: Envelope(Type.Object({ chat_type: Type.String(), chat_id: Type.String(), state: Type.String() })), ...responses },
      },
    },
    async (request) => envelope(deps.clock, await sandboxCustomer(deps, accountOf(request).accountId, request.params.channel_id, request.body)),
  );

  app.post(
    '/sandbox/messages/:message_id/status',
    {
      schema: {
        tags,
        summary: 'The messenger reports on an outbound message',
        description: 'Status only moves forward; a report that would move it back is ignored (`changed: false`).',
        params: MessageIdParams,
        body: MessageStatusBody,
        response: { 200: Envelope(MessageStatusResult), ...responses },
      },
    },
    async (request) => envelope(deps.clock, await sandboxMessageStatus(deps, accountOf(request).accountId, request.params.message_id, request.body)),
  );

  app.post(
    '/sandbox/messages/:message_id/edit',
    {
      schema: {
        tags,
        summary: 'A customer edits a message they wrote',
        description:
          'On transports whose messages can be edited, the words of an inbound text message change and `message.edit` is sent (`crm_user_id` null, `text` and `old_text`), as a live platform reports a customer’s edit. Other transports answer 400 `CHANNEL_INVALID_TRANSPORT_FOR_EDITING`; a message with an attachment `CHANNEL_INVALID_TRANSPORT_FOR_CONTENT_EDITING`; an outbound message `VALIDATION_ERROR`; a channel that is not active 409 `CHANNEL_WRONG_STATUS`, with its status and reason.',
        params: MessageIdParams,
        body: CustomerEditBody,
        response: { 200: Envelope(Type.Object({ message_id: Type.String({ format: 'uuid' }), chat_id: Type.Union([Type.String(), Type.Null()]) })), ...responses },
      },
    },
    async (request) => envelope(deps.clock, await sandboxCustomerEdit(deps, accountOf(request).accountId, request.params.message_id, request.body)),
  );
};
