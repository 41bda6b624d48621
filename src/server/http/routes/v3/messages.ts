import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FieldError } from '../../../../contract/errors.ts';
import { v3ErrorsWithNotFound } from '../../../../contract/v3/errors.ts';
import { V3EditBody, V3MessageIdParams, V3MessageRef, V3SendBody } from '../../../../contract/v3/messages.ts';
import { AppError } from '../../../core/errors.ts';
import { acceptMessageWithId } from '../../../core/messages/accept-message.ts';
import { deleteMessage, editMessage } from '../../../core/messages/edit-delete.ts';
import type { MessageDeps } from '../../../core/messages/ports.ts';
import { v3CallerOf } from './caller.ts';
import { CrmMessageIds } from './crm-message-ids.ts';
import { V3Error } from './errors.ts';
import { checkAgainstChannel, checkContent, keyboardOf, toSendBody, v3FieldName } from './send-body.ts';

/** How long a send by phone or username waits for the messenger to name the chat, and how often it looks. */
const RESOLVE_WAIT_MS = 5_000;
const RESOLVE_POLL_MS = 50;

/** The core's refusals of a send or a change, with the fields and codes of the v3 body. */
function inV3Words(err: unknown): unknown {
  if (!(err instanceof AppError) || err.code !== 'VALIDATION_ERROR') return err;
  const given = (err.data?.fields ?? []) as FieldError[];
  if (given.some((f) => f.field === 'quoted_message_id')) return new V3Error(400, 'REFERENCE_MESSAGE_NOT_FOUND', 'Quoted message not found', { fields: ['refMessageId'] });
  const fields = [...new Set(given.map((f) => v3FieldName(f.field)))];
  return new V3Error(400, 'INVALID_MESSAGE_DATA', given.map((f) => `${v3FieldName(f.field)} ${f.message}`).join('; ') || err.message, { fields });
}

/** The messenger's id of the chat a send by phone or username reached, once its send resolved it (null if not in time). */
async function resolvedChatId(deps: MessageDeps, accountId: string, messageId: string): Promise<string | null> {
  const deadline = Date.now() + RESOLVE_WAIT_MS;
  for (;;) {
    const message = await deps.store.messages.get(accountId, messageId);
    const chat = message && (await deps.store.chats.get(accountId, message.chatRef));
    if (chat?.chatId) return chat.chatId;
    if (message?.status === 'failed' || Date.now() >= deadline) return null;
    await sleep(RESOLVE_POLL_MS);
  }
}

const config = { access: 'sidecar', v3Invalid: 'INVALID_MESSAGE_DATA', v3Detailed: true } as const;
/** Sidecar keys send but do not edit or delete (their routes are the channel list, sending, the webhook address, templates). */
const changeConfig = { ...config, access: 'client' } as const;

/** Sending, editing and deleting through the v3 face: the same use-cases as /v2/messages. */
export const v3MessageRoutes: FastifyPluginAsyncTypebox<MessageDeps> = async (app, deps) => {
  const tags = ['v3 messages'];
  const crmMessageIds = new CrmMessageIds(deps.clock);

  app.post(
    '/message',
    {
      config,
      schema: {
        tags,
        summary: 'Send a message',
        description:
          'Answers 201 `{messageId, chatId}` once the message is stored and queued; delivery is reported by the `statuses` webhook. ' +
          'One of `text`, `contentUri`, `templateId` (or a template code in `text`). A repeated `crmMessageId` within 60 seconds ' +
          'answers 400 REPEATED_CRM_MESSAGE_ID and sends nothing. Refusals: INVALID_MESSAGE_DATA (`data.fields`), WRONG_TRANSPORT, ' +
          'MESSAGE_ONLY_TEXT_OR_CONTENT, MESSAGE_NOTHING_TO_SEND, MESSAGES_TEXT_CAN_NOT_BE_BLANK, MESSAGE_TEXT_TOO_LONG / MESSAGES_TOO_LONG_*, ' +
          'CHANNEL_NOT_FOUND, CHANNEL_BLOCKED, CHANNEL_NO_MONEY, CHANNEL_WAPI_REJECTED, MESSAGE_CHANNEL_UNAVAILABLE, REFERENCE_MESSAGE_NOT_FOUND, TEMPLATE_REJECTED.',
        body: V3SendBody,
        response: { 201: V3MessageRef, ...v3ErrorsWithNotFound },
      },
    },
    async (request, reply) => {
      const caller = v3CallerOf(request);
      const body = request.body;
      checkContent(body);
      const crmMessageId = body.crmMessageId;
      if (crmMessageId !== undefined && !crmMessageIds.take(caller.accountId, crmMessageId)) {
        throw new V3Error(400, 'REPEATED_CRM_MESSAGE_ID', 'You have already sent message with same crmMessageId', { crmMessageId });
      }
      const sendBody = toSendBody(body, caller.keyKind === 'sidecar');
      let accepted;
      try {
        accepted = await acceptMessageWithId(deps, caller.accountId, sendBody, (channel, capabilities) => {
          checkAgainstChannel(body, channel, capabilities);
          // Buttons take the channel's dialect, known only now; the use-case reads the keyboard after this check.
          if (body.buttonsObject && !sendBody.template) sendBody.keyboard = keyboardOf(capabilities.keyboard, body.buttonsObject);
        });
      } catch (err) {
        if (crmMessageId !== undefined) crmMessageIds.giveBack(caller.accountId, crmMessageId);
        throw inV3Words(err);
      }
      const chatId = accepted.result.chat_id ?? (await resolvedChatId(deps, caller.accountId, accepted.messageId));
      return reply.code(201).send({ messageId: accepted.messageId, chatId });
    },
  );

  app.patch(
    '/message/:messageId',
    {
      config: changeConfig,
      schema: {
        tags,
        summary: 'Edit a message',
        description:
          'New `text` or `contentUri` (not both), optionally the editing `crmUserId`. Answers 200 `{messageId, chatId}`. Refusals: ' +
          'MESSAGES_NOT_FOUND, MESSAGES_EDITING_TIME_EXPIRED (15 minutes after delivery), MESSAGES_CONTAIN_BUTTONS, ' +
          'CHANNEL_INVALID_TRANSPORT_FOR_EDITING, CHANNEL_INVALID_TRANSPORT_FOR_CONTENT_EDITING, MESSAGE_ONLY_TEXT_OR_CONTENT.',
        params: V3MessageIdParams,
        body: V3EditBody,
        response: { 200: V3MessageRef, ...v3ErrorsWithNotFound },
      },
    },
    async (request) => {
      const caller = v3CallerOf(request);
      const { text, contentUri, crmUserId } = request.body;
      if (text !== undefined && contentUri !== undefined) {
        throw new V3Error(400, 'MESSAGE_ONLY_TEXT_OR_CONTENT', 'Message can contain only text or content', { fields: ['text', 'contentUri'] });
      }
      if (text === undefined && contentUri === undefined) throw new V3Error(400, 'MESSAGE_NOTHING_TO_SEND', 'Give text or contentUri', { fields: ['text'] });
      const edit = {
        ...(text !== undefined ? { text } : {}),
        ...(contentUri !== undefined ? { attachment: { url: contentUri } } : {}),
        ...(crmUserId !== undefined && caller.keyKind !== 'sidecar' ? { crm_user_id: crmUserId } : {}),
      };
      const ref = await editMessage(deps, caller.accountId, request.params.messageId, edit).catch((err: unknown) => {
        throw inV3Words(err);
      });
      return { messageId: ref.message_id, chatId: ref.chat_id };
    },
  );

  app.delete(
    '/message/:messageId',
    {
      config: changeConfig,
      schema: {
        tags,
        summary: 'Delete a message',
        description:
          'On whatsapp, telegram and max channels and their bots (else CHANNEL_INVALID_TRANSPORT_FOR_DELETION). Answers 200 ' +
          '`{messageId, chatId}`; the message is kept with a deleted mark for history.',
        params: V3MessageIdParams,
        response: { 200: V3MessageRef, ...v3ErrorsWithNotFound },
      },
    },
    async (request) => {
      const ref = await deleteMessage(deps, v3CallerOf(request).accountId, request.params.messageId);
      return { messageId: ref.message_id, chatId: ref.chat_id };
    },
  );
};
