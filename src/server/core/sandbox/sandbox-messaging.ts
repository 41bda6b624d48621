import { randomUUID } from 'node:crypto';
import { failureReasons, type FailureReason } from '../../../contract/messages.ts';
import type { CustomerBody, CustomerEditBody, InboundBody } from '../../../contract/sandbox.ts';
import { channelNotFound, wrongStatus } from '../channels/channel-steps.ts';
import { AppError, validationError } from '../errors.ts';
import { messageArrived } from '../messages/inbound.ts';
import { assertTextFits, changeable, editing } from '../messages/edit-delete.ts';
import { platformEdited } from '../messages/platform-changes.ts';
import { chatIdAsKept } from '../messages/recipient.ts';
import type { MessageDeps } from '../messages/ports.ts';
import { messageNotFound, messageStatusReported } from '../messages/receipts.ts';
import { sandboxChatIdFor } from './ports.ts';
import { quotedOnPhone } from './sandbox-phone.ts';
import { captionNumberOf } from '../messages/caption-number.ts';

/** The customer side of the sandbox network: writing to a channel, blocking it, not existing, reading. */

/** Messengers that name a chat by the customer's number: a customer known by phone has it as the chat id. */
const numbered = new Set(['whatsapp', 'viber']);

async function counterpart(deps: MessageDeps, accountId: string, channelId: string, to: Pick<InboundBody, 'chat_type' | 'chat_id' | 'username' | 'phone'>) {
  const channel = await deps.store.channels.get(accountId, channelId);
  if (!channel) throw channelNotFound(channelId);
  const capabilities = deps.rules[channel.transport].capabilities;
  if (!capabilities.chat_types.includes(to.chat_type)) {
    throw validationError([{ field: 'chat_type', message: `is not a chat type of ${channel.transport} channels (${capabilities.chat_types.join(', ')})` }]);
  }
  if (to.chat_id === undefined && to.username === undefined && to.phone === undefined) {
    throw validationError([{ field: 'chat_id', message: 'one of chat_id, username or phone is required' }]);
  }
  const byNumber = to.chat_id === undefined && to.phone !== undefined && numbered.has(to.chat_type) ? to.phone : null;
  return { channel, chatId: to.chat_id !== undefined ? chatIdAsKept(to.chat_type, to.chat_id) : (byNumber ?? sandboxChatIdFor(to)) };
}

/** `POST /v2/sandbox/channels/{id}/inbound`: a customer writes to the channel (or, as `outbound`, the owner from the phone). */
export async function sandboxInbound(
  deps: MessageDeps,
  accountId: string,
  channelId: string,
  body: InboundBody,
  direction: 'inbound' | 'outbound' = 'inbound',
): Promise<{ message_id: string; chat_id: string }> {
  if (body.text === undefined && body.attachment === undefined) throw validationError([{ field: 'text', message: 'text or an attachment is required' }]);
  const { chatId } = await counterpart(deps, accountId, channelId, body);
  const quotedMessengerId = body.reply_to === undefined ? undefined : await quotedOnPhone(deps, accountId, channelId, body.reply_to);
  if (direction === 'inbound') await deps.store.sandbox.setCustomer(channelId, body.chat_type, chatId, { wroteFirst: true, lastInboundAt: deps.clock.now() });
  const messengerMessageId = `sbx-${randomUUID()}`;
  const arriving = {
    chatType: body.chat_type,
    chatId,
    username: body.username ?? null,
    phone: body.phone ?? null,
    name: body.name ?? null,
    direction,
    ...(quotedMessengerId === undefined ? {} : { quotedMessengerId }),
  };
  if (!body.attachment) return messageArrived(deps, accountId, channelId, { ...arriving, text: body.text ?? null, attachment: null, messengerMessageId });
  const file = await messageArrived(deps, accountId, channelId, { ...arriving, text: null, attachment: body.attachment, messengerMessageId });
  // A file's caption is a message of its own, as the live drivers record it: `<id>:caption`.
  if (body.text !== undefined) await messageArrived(deps, accountId, channelId, { ...arriving, text: body.text, attachment: null, messengerMessageId: captionNumberOf(messengerMessageId) });
  return file;
}

/** `POST /v2/sandbox/channels/{id}/customers`: a customer blocks the channel, or turns out not to exist. */
export async function sandboxCustomer(deps: MessageDeps, accountId: string, channelId: string, body: CustomerBody) {
  const { chatId } = await counterpart(deps, accountId, channelId, body);
  await deps.store.sandbox.setCustomer(channelId, body.chat_type, chatId, { state: body.state });
  // A send by username or phone is refused before the network resolves a chat id: remember that key too.
  const alias = body.username !== undefined ? `@${body.username}` : body.phone !== undefined ? `+${body.phone}` : null;
  if (alias) await deps.store.sandbox.setCustomer(channelId, body.chat_type, alias, { state: body.state });
  return { chat_type: body.chat_type, chat_id: chatId, state: body.state };
}

/** `POST /v2/sandbox/messages/{id}/status`: the messenger reports delivery, reading, or a failure. */
export function sandboxMessageStatus(
  deps: MessageDeps,
  accountId: string,
  messageId: string,
  body: { status: 'delivered' | 'read' | 'failed'; reason?: string },
) {
  if (body.reason !== undefined && !(failureReasons as readonly string[]).includes(body.reason)) {
    throw validationError([{ field: 'reason', message: 'is not a failure reason of the interface' }]);
  }
  if (body.reason !== undefined && body.status !== 'failed') throw validationError([{ field: 'reason', message: 'is only for status failed' }]);
  return messageStatusReported(deps, accountId, messageId, { status: body.status, reason: (body.reason as FailureReason | undefined) ?? null });
}

/**
 * `POST /v2/sandbox/messages/{id}/edit`: the customer changes the words of a message they wrote, on a transport
 * whose messages can be edited. Recorded as a live platform's report of an edit is: `message.edit`.
 */
export async function sandboxCustomerEdit(deps: MessageDeps, accountId: string, messageId: string, body: CustomerEditBody): Promise<{ message_id: string; chat_id: string | null }> {
  const { message, channel, chat, capabilities, chatId } = await changeable(deps, accountId, messageId);
  if (message.direction !== 'inbound') throw validationError([{ field: 'message_id', message: 'only a message the customer wrote (inbound) is edited by the customer' }]);
  if (!chat || !chatId || message.messengerMessageId === null) throw messageNotFound(messageId);
  editing(channel, capabilities);
  if (message.text === null) throw new AppError('CHANNEL_INVALID_TRANSPORT_FOR_CONTENT_EDITING', 'Only the words of a text message are edited here');
  assertTextFits(channel, capabilities, body.text);
  const edit = { chatType: chat.chatType, chatId, messengerMessageId: message.messengerMessageId, text: body.text };
  if ((await platformEdited(deps, channel.id, [edit])) !== 'recorded') throw wrongStatus(channel, 'Only an active channel receives edits');
  return { message_id: message.id, chat_id: chatId };
}
