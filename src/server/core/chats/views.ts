import type { BffChat, BffMessage, MessagePreview } from '../../../contract/bff-chats.ts';
import type { ChatListRow, HistoryRow } from './ports.ts';

const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());

type Content = Pick<HistoryRow, 'text' | 'attachment' | 'template'>;

const kindOf = (m: Content): MessagePreview['kind'] => (m.attachment !== null ? 'attachment' : m.template !== null ? 'template' : 'text');
const textOf = (m: Content): string | null => m.text ?? m.template?.text ?? null;

export function toBffChat(row: ChatListRow): BffChat {
  const last = row.lastMessage;
  return {
    chat_ref: row.id,
    channel_id: row.channelId,
    transport: row.transport,
    channel_name: row.channelName,
    chat_type: row.chatType,
    chat_id: row.chatId,
    username: row.username,
    phone: row.phone,
    name: row.contactName ?? row.messengerName,
    contact_name: row.contactName,
    messenger_name: row.messengerName,
    unanswered_count: row.unanswered,
    last_activity_at: row.activityAt.toISOString(),
    last_message: last && {
      message_id: last.id,
      direction: last.direction,
      status: last.status,
      kind: kindOf(last),
      text: textOf(last),
      attachment_name: last.attachment?.name ?? null,
      created_at: last.createdAt.toISOString(),
      deleted: last.deletedAt !== null,
    },
  };
}

export function toBffMessage(row: HistoryRow): BffMessage {
  return {
    message_id: row.id,
    request_id: row.requestId,
    chat_ref: row.chatRef,
    channel_id: row.channelId,
    direction: row.direction,
    status: row.status,
    reason: row.reason,
    text: row.text,
    attachment: row.attachment,
    template: row.template,
    keyboard: row.keyboard,
    quoted_message: row.quoted && {
      message_id: row.quoted.id,
      direction: row.quoted.direction,
      text: row.quoted.text,
      attachment_name: row.quoted.attachment?.name ?? null,
      deleted: row.quoted.deletedAt !== null,
    },
    author: row.crmUserId === null ? null : { crm_user_id: row.crmUserId, name: row.authorName },
    created_at: row.createdAt.toISOString(),
    edited_at: iso(row.editedAt),
    deleted_at: iso(row.deletedAt),
    deleted: row.deletedAt !== null,
    ...(row.hold ? { held: { reason: row.hold.reason, until: row.hold.until.toISOString() } } : {}),
  };
}
