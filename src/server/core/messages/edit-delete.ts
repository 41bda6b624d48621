import type { TransportCapabilities } from '../../../contract/channels.ts';
import type { Attachment, EditMessageBody, MessageRef } from '../../../contract/messages.ts';
import { wrongStatus } from '../channels/channel-steps.ts';
import { AppError, validationError } from '../errors.ts';
import { messageDeletedEvent, messageEditedEvent } from './message-events.ts';
import type { ChannelRecord } from '../channels/ports.ts';
import type { MessageDeps, MessageRecord } from './ports.ts';
import { messageNotFound } from './receipts.ts';

/** The account's message, not deleted, with its channel and the channel's capabilities (outbound is checked apart). */
export async function changeable(deps: MessageDeps, accountId: string, messageId: string) {
  const message = await deps.store.messages.get(accountId, messageId);
  if (!message || message.deletedAt) throw messageNotFound(messageId);
  const channel = await deps.store.channels.get(accountId, message.channelId);
  if (!channel) throw messageNotFound(messageId);
  const chat = await deps.store.chats.get(accountId, message.chatRef);
  return { message, channel, chat, capabilities: deps.rules[channel.transport].capabilities, chatId: chat?.chatId ?? null };
}

/**
 * A change goes to the messenger through the channel's session, as a send does: a channel that is not active
 * (logged out, banned, unpaid, deleted) refuses it, with the channel's status and reason.
 */
function assertActive(channel: ChannelRecord): void {
  if (channel.state.status !== 'active') throw wrongStatus(channel, 'Messages are changed only through an active channel');
}

/** How the channel's transport edits messages; refused when it does not. */
export function editing(channel: ChannelRecord, capabilities: TransportCapabilities): NonNullable<TransportCapabilities['edit']> {
  if (!capabilities.edit) throw new AppError('CHANNEL_INVALID_TRANSPORT_FOR_EDITING', `Messages of ${channel.transport} channels cannot be edited`);
  return capabilities.edit;
}

/** A send over the limit fails later, as the messenger's answer; an edit is answered now, so it is refused now. */
export function assertTextFits(channel: ChannelRecord, capabilities: TransportCapabilities, text: string): void {
  if ([...text].length > capabilities.text_limit) {
    throw validationError([{ field: 'text', message: `must not be longer than ${capabilities.text_limit} characters on ${channel.transport}` }]);
  }
}

function assertSentOutbound(message: MessageRecord): asserts message is MessageRecord & { messengerMessageId: string } {
  if (message.direction !== 'outbound') throw validationError([{ field: 'message_id', message: 'only outbound messages can be changed' }]);
  if (message.messengerMessageId === null || message.status === 'failed') {
    throw new AppError('CHANNEL_WRONG_STATUS', 'The message has not been sent', { status: message.status, reason: message.reason });
  }
}

/**
 * PATCH /v2/messages/{id}: within 15 minutes after delivery (after sending when no receipt came), on transports
 * that edit; whatsapp edits text only; a max-bot message with a keyboard cannot be edited (docs/decisions.md).
 */
export async function editMessage(deps: MessageDeps, accountId: string, messageId: string, body: EditMessageBody): Promise<MessageRef> {
  if ((body.text === undefined) === (body.attachment === undefined)) {
    throw validationError([{ field: 'text', message: 'exactly one of text or attachment is required' }]);
  }
  const { message, channel, capabilities, chatId } = await changeable(deps, accountId, messageId);
  const edit = editing(channel, capabilities);
  // Text only: a text message gets another text; an attachment (or a template) is not turned into text either.
  if (edit.text_only && (body.attachment !== undefined || message.text === null)) {
    throw new AppError('CHANNEL_INVALID_TRANSPORT_FOR_CONTENT_EDITING', `Only the text of ${channel.transport} text messages can be edited`);
  }
  if (edit.not_with_keyboard && message.keyboard) throw new AppError('MESSAGES_CONTAIN_BUTTONS', 'A message with a keyboard cannot be edited');
  if (body.text !== undefined) assertTextFits(channel, capabilities, body.text);
  assertActive(channel);
  assertSentOutbound(message);
  const since = message.deliveredAt ?? message.sentAt ?? message.createdAt;
  const deadline = since.getTime() + edit.window_seconds * 1000;
  if (deps.clock.now().getTime() > deadline) {
    throw new AppError('MESSAGES_EDITING_TIME_EXPIRED', 'Messages can be edited for 15 minutes after delivery', { editable_until: new Date(deadline).toISOString() });
  }
  const text = body.text ?? null;
  const attachment: Attachment | null = body.attachment ?? null;
  await deps.driver.edit({ channelId: channel.id, transport: channel.transport, chatId, messengerMessageId: message.messengerMessageId, sealedCredentials: channel.credentials, text, attachment, keyboard: message.keyboard });
  await deps.store.transaction(async (tx) => {
    const current = (await tx.messages.getForUpdate(message.id)) ?? message;
    const after: MessageRecord = {
      ...current,
      ...(body.text !== undefined ? { text, attachment: null } : { attachment, text: null }),
      crmUserId: body.crm_user_id ?? current.crmUserId,
      editedAt: deps.clock.now(),
    };
    await tx.messages.update(after);
    await messageEditedEvent(tx, deps.clock, current, after);
  });
  return { message_id: message.id, chat_id: chatId };
}

/** DELETE /v2/messages/{id}: gone for both sides on whatsapp, telegram and max; kept here with a deleted mark. */
export async function deleteMessage(deps: MessageDeps, accountId: string, messageId: string): Promise<MessageRef> {
  const { message, channel, capabilities, chatId } = await changeable(deps, accountId, messageId);
  if (!capabilities.delete) throw new AppError('CHANNEL_INVALID_TRANSPORT_FOR_DELETION', `Messages of ${channel.transport} channels cannot be deleted`);
  assertActive(channel);
  assertSentOutbound(message);
  await deps.driver.remove({ channelId: channel.id, transport: channel.transport, chatId, messengerMessageId: message.messengerMessageId, sealedCredentials: channel.credentials });
  await deps.store.transaction(async (tx) => {
    const current = await tx.messages.getForUpdate(message.id);
    if (!current || current.deletedAt) return;
    await tx.messages.update({ ...current, deletedAt: deps.clock.now() });
    await messageDeletedEvent(tx, deps.clock, current, null);
  });
  return { message_id: message.id, chat_id: chatId };
}
