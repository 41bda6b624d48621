import { recordEvent } from '../events/record-event.ts';
import type { Clock, NewEvent, TransactionScope } from '../ports.ts';
import type { ChatRecord, MessageRecord, MessageSender } from './ports.ts';

const groupChatTypes: ReadonlySet<string> = new Set(['whatsgroup', 'telegroup', 'maxgroup']);

/**
 * Who wrote an inbound message: the member the messenger named in a group chat, the chat's customer otherwise.
 * A group message whose member the messenger did not name has no sender (the group is not a person).
 */
function senderOf(chat: ChatRecord, member: MessageSender | undefined): MessageSender | null {
  if (member) return member;
  if (groupChatTypes.has(chat.chatType)) return null;
  return { chat_type: chat.chatType, chat_id: chat.chatId, name: chat.name, username: chat.username, phone: chat.phone };
}

/** A chat's events share one ordering key: a CRM sees one conversation in the order it happened. */
export const chatOrderingKey = (chatRef: string) => `chat:${chatRef}`;

const contentOf = (m: MessageRecord) =>
  m.text !== null ? { text: m.text } : m.attachment !== null ? { attachment: m.attachment } : m.template !== null ? { template: m.template } : {};

/**
 * `message.add`: an inbound message, one sent from the phone, or an outbound one whose chat became known. An
 * inbound one also names its `sender` (`member` in a group chat, as the messenger reported it).
 */
export function messageAddedEvent(tx: TransactionScope, clock: Clock, message: MessageRecord, chat: ChatRecord, member?: MessageSender) {
  const sender = message.direction === 'inbound' ? senderOf(chat, member) : null;
  return recordEvent(tx, clock, {
    accountId: message.accountId,
    name: 'message.add',
    orderingKey: chatOrderingKey(chat.id),
    payload: {
      message_id: message.id,
      channel_id: message.channelId,
      direction: message.direction,
      quoted_message_id: message.quotedMessageId,
      timestamp: message.createdAt.getTime(),
      crm_user_id: message.crmUserId,
      status: message.status,
      recipient: { chat_type: chat.chatType, chat_id: chat.chatId, username: chat.username, phone: chat.phone, name: chat.name },
      ...(sender ? { sender } : {}),
      ...contentOf(message),
    },
  });
}

/** `message.status_update` of a message in the state given, to record (with others) by the caller. */
export const statusUpdateOf = (message: MessageRecord): NewEvent => ({
  accountId: message.accountId,
  name: 'message.status_update',
  orderingKey: chatOrderingKey(message.chatRef),
  payload: { message_id: message.id, request_id: message.requestId, status: message.status, reason: message.reason },
});

export function messageStatusEvent(tx: TransactionScope, clock: Clock, message: MessageRecord) {
  return recordEvent(tx, clock, statusUpdateOf(message));
}

export function messageEditedEvent(tx: TransactionScope, clock: Clock, before: MessageRecord, after: MessageRecord) {
  return recordEvent(tx, clock, {
    accountId: after.accountId,
    name: 'message.edit',
    orderingKey: chatOrderingKey(after.chatRef),
    payload: {
      message_id: after.id,
      crm_user_id: after.crmUserId,
      timestamp: clock.now().getTime(),
      ...(after.text !== before.text ? { text: after.text, old_text: before.text } : {}),
      ...(after.attachment !== before.attachment ? { attachment: after.attachment, old_attachment: before.attachment } : {}),
    },
  });
}

export function messageDeletedEvent(tx: TransactionScope, clock: Clock, message: MessageRecord, crmUserId: string | null) {
  return recordEvent(tx, clock, {
    accountId: message.accountId,
    name: 'message.delete',
    orderingKey: chatOrderingKey(message.chatRef),
    payload: { message_id: message.id, crm_user_id: crmUserId, timestamp: clock.now().getTime() },
  });
}
