import { randomUUID } from 'node:crypto';
import type { FieldError } from '../../../contract/errors.ts';
import { CONTENT_CONFLICT, type SendMessageBody, type SendMessageResult } from '../../../contract/messages.ts';
import { channelNotFound, wrongStatus } from '../channels/channel-steps.ts';
import type { ChannelRecord } from '../channels/ports.ts';
import type { TransportCapabilities } from '../../../contract/channels.ts';
import { validationError } from '../errors.ts';
import { resolveTemplateForSend } from '../templates/resolve-template.ts';
import { keyboardForContent, normalizeKeyboard } from './keyboards.ts';
import { storeDrafts, type AcceptDraft } from './accept-batch.ts';
import type { MessageDeps } from './ports.ts';
import { checkRecipient, type CheckedRecipient } from './recipient.ts';
import { whatsappChatIdOf } from './whatsapp-numbers.ts';

const CONTENT_FIELDS = ['text', 'attachment', 'template'] as const;

/**
 * Exactly one of text, attachment, template; the interface's own words when there are more. A file with its caption
 * (text and attachment) passes only where the caller allows it (the chat frame, see captioned-send.ts).
 */
function assertOneContent(body: SendMessageBody, caption: boolean): void {
  const present = CONTENT_FIELDS.filter((f) => body[f] !== undefined);
  if (present.length === 1) return;
  if (caption && present.length === 2 && body.template === undefined) return;
  if (present.length === 0) throw validationError([{ field: 'text', message: 'one of text, attachment or template is required' }]);
  throw validationError(
    present.map((field): FieldError => ({ field, message: 'only one of text, attachment or template may be given' })),
    CONTENT_CONFLICT,
  );
}

/**
 * A whatsapp number goes to the chat the customer is known by in the channel: the chat of the number as written, or
 * of its other form where the same mobile is written two ways (whatsapp-numbers.ts). The answer still echoes the
 * request's chat_id, as the interface says; the message is recorded in the chat it went to.
 */
async function chatOfRecipient(deps: MessageDeps, channelId: string, recipient: CheckedRecipient): Promise<CheckedRecipient> {
  if (recipient.chatType !== 'whatsapp' || recipient.chatId === null) return recipient;
  return { ...recipient, chatId: await whatsappChatIdOf(deps.store.chats, channelId, recipient.chatId) };
}

/** What a face checks of a send once the channel is known, before the gateway's own rules (the v3 face's error codes). */
export type SendCheck = (channel: ChannelRecord, capabilities: TransportCapabilities) => void;

/** An accepted send: the interface's answer, and the id the message is known by from now on. */
export interface AcceptedMessage {
  result: SendMessageResult;
  messageId: string;
}

/**
 * POST /v2/messages. Checks what the request itself breaks, then commits the message as `accepted` (with other
 * sends arriving at the same time, when a committer is given), which queues it: once this returns, the message
 * will reach a final status even across crashes.
 */
export async function acceptMessage(deps: MessageDeps, accountId: string, body: SendMessageBody): Promise<SendMessageResult> {
  return (await acceptMessageWithId(deps, accountId, body)).result;
}

/** As acceptMessage, answering the message's id too (the v3 face's synchronous `messageId`). */
export async function acceptMessageWithId(deps: MessageDeps, accountId: string, body: SendMessageBody, check?: SendCheck, caption = false): Promise<AcceptedMessage> {
  assertOneContent(body, caption);
  const channel = await deps.store.channels.get(accountId, body.channel_id);
  if (!channel) throw channelNotFound(body.channel_id);
  const capabilities = deps.rules[channel.transport].capabilities;
  check?.(channel, capabilities);
  if (channel.state.status !== 'active') throw wrongStatus(channel, 'Messages are sent only through an active channel');
  const recipient = await chatOfRecipient(deps, channel.id, checkRecipient(capabilities, body.recipient));
  if (body.template && !capabilities.templates) throw validationError([{ field: 'template', message: 'this transport has no templates' }]);
  // Buttons beyond a platform's limits are dropped, not refused: the caller learns of it in `warnings`.
  const keyboard = body.keyboard ? keyboardForContent(normalizeKeyboard(capabilities.keyboard, body.keyboard), capabilities.keyboard, body) : { keyboard: null, warnings: [] };
  const template = body.template ? { ...body.template, text: (await resolveTemplateForSend(deps.store, accountId, channel.id, body.template)).text } : null;
  if (body.quoted_message_id) {
    const quoted = await deps.store.messages.get(accountId, body.quoted_message_id);
    if (!quoted || quoted.channelId !== channel.id) throw validationError([{ field: 'quoted_message_id', message: 'no such message in this channel' }]);
  }

  const now = deps.clock.now();
  const requestId = randomUUID();
  const resetUnanswered = body.reset_unanswered ?? true;
  const messageId = randomUUID();
  const draft: AcceptDraft = {
    accountId,
    channelId: channel.id,
    recipient,
    message: {
      id: messageId,
      requestId,
      accountId,
      channelId: channel.id,
      direction: 'outbound',
      status: 'accepted',
      reason: null,
      text: body.text ?? null,
      attachment: body.attachment ?? null,
      template,
      keyboard: keyboard.keyboard,
      quotedMessageId: body.quoted_message_id ?? null,
      crmUserId: body.crm_user_id ?? null,
      resetUnanswered,
      messengerMessageId: null,
      createdAt: now,
      sentAt: null,
      deliveredAt: null,
      readAt: null,
      editedAt: null,
      deletedAt: null,
    },
  };
  if (deps.accepts) await deps.accepts.commit(draft);
  else await storeDrafts(deps, [draft]);
  // The interface echoes the request's chat_id; the chat keeps it as checkRecipient gives it (an Instagram name in lower case).
  return {
    result: { request_id: requestId, chat_id: body.recipient.chat_id ?? null, ...(keyboard.warnings.length > 0 ? { warnings: keyboard.warnings } : {}) },
    messageId,
  };
}
