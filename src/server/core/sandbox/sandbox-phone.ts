import type { BffMessage } from '../../../contract/bff-chats.ts';
import type { ChatType } from '../../../contract/channels.ts';
import { channelNotFound, wrongStatus } from '../channels/channel-steps.ts';
import { chatHistory } from '../chats/chat-history.ts';
import { AppError, validationError } from '../errors.ts';
import { changeable } from '../messages/edit-delete.ts';
import { onActiveChannel } from '../messages/inbound.ts';
import { messageDeletedEvent } from '../messages/message-events.ts';
import type { MessageDeps } from '../messages/ports.ts';
import { chatIdAsKept } from '../messages/recipient.ts';
import { messageNotFound } from '../messages/receipts.ts';
import { isReactionEmoji, platformReacted } from '../messages/reactions.ts';

/** What a customer's phone shows and does beyond writing: the chat as the customer sees it, and taking a message back. */

/**
 * `POST /v2/sandbox/messages/{id}/delete`: the customer deletes a message they wrote, on a transport whose messages
 * can be deleted. Recorded as a live platform's report of a deletion would be: kept with a deleted mark, `message.delete`
 * with `crm_user_id` null.
 */
export async function sandboxCustomerDelete(deps: MessageDeps, accountId: string, messageId: string): Promise<{ message_id: string; chat_id: string | null }> {
  const { message, channel, capabilities, chatId } = await changeable(deps, accountId, messageId);
  if (message.direction !== 'inbound') throw validationError([{ field: 'message_id', message: 'only a message the customer wrote (inbound) is deleted by the customer' }]);
  if (!capabilities.delete) throw new AppError('CHANNEL_INVALID_TRANSPORT_FOR_DELETION', `Messages of ${channel.transport} channels cannot be deleted`);
  const outcome = await onActiveChannel(deps, channel.id, async (tx) => {
    const current = await tx.messages.getForUpdate(message.id);
    if (!current || current.deletedAt) return;
    await tx.messages.update({ ...current, deletedAt: deps.clock.now() });
    await messageDeletedEvent(tx, deps.clock, current, null);
  });
  if (outcome !== 'recorded') throw wrongStatus(channel, 'Only an active channel receives deletions');
  return { message_id: message.id, chat_id: chatId };
}

/**
 * `POST /v2/sandbox/messages/{id}/reaction`: the chat's customer reacts to a message of the chat (either side's) with
 * an emoji, or takes the reaction back (null), on a transport with reactions. Recorded as a live platform's report
 * of a reaction is: `message.reaction` with `by: customer`.
 */
export async function sandboxCustomerReact(deps: MessageDeps, accountId: string, messageId: string, emoji: string | null): Promise<{ message_id: string; chat_id: string | null }> {
  if (emoji !== null && !isReactionEmoji(emoji)) throw validationError([{ field: 'emoji', message: 'must be one emoji' }]);
  const { message, channel, capabilities, chat, chatId } = await changeable(deps, accountId, messageId);
  if (!capabilities.reactions) throw new AppError('CHANNEL_INVALID_TRANSPORT_FOR_REACTIONS', `Messages of ${channel.transport} channels cannot be reacted to`);
  if (!chat?.chatId || message.messengerMessageId === null) throw messageNotFound(messageId);
  const outcome = await platformReacted(deps, channel.id, [
    { chatType: chat.chatType, chatId: chat.chatId, messengerMessageId: message.messengerMessageId, reactor: chat.chatId, emoji },
  ]);
  if (outcome !== 'recorded') throw wrongStatus(channel, 'Only an active channel receives reactions');
  return { message_id: message.id, chat_id: chatId };
}

/** `GET /v2/sandbox/channels/{id}/chats/{chat_type}/{chat_id}/messages`: the customer's screen, the newest messages oldest first. */
export async function sandboxChatMessages(deps: MessageDeps, accountId: string, channelId: string, chatType: ChatType, chatId: string): Promise<BffMessage[]> {
  const channel = await deps.store.channels.get(accountId, channelId);
  if (!channel) throw channelNotFound(channelId);
  const chat = await deps.store.chats.findByMessengerId(channel.id, chatType, chatIdAsKept(chatType, chatId));
  if (!chat) return [];
  return (await chatHistory(deps, accountId, chat.id, { limit: 50 })).messages;
}

/** The message a customer's reply quotes, as the messenger knows it. */
export async function quotedOnPhone(deps: MessageDeps, accountId: string, channelId: string, messageId: string): Promise<string> {
  const message = await deps.store.messages.get(accountId, messageId);
  if (!message || message.channelId !== channelId || message.messengerMessageId === null) throw messageNotFound(messageId);
  return message.messengerMessageId;
}
