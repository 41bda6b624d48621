import type { Kysely, Selectable } from 'kysely';
import type { Attachment, FailureReason, Keyboard } from '../../../contract/messages.ts';
import type { MessageContent, MessageRecord, MessageRepository } from '../../core/messages/ports.ts';
import type { DatabaseSchema, MessagesTable } from '../schema.ts';

const json = (value: unknown) => (value === null ? null : JSON.stringify(value));

const toRecord = (r: Selectable<MessagesTable>): MessageRecord => ({
  id: r.id,
  requestId: r.request_id,
  accountId: r.account_id,
  channelId: r.channel_id,
  chatRef: r.chat_ref,
  direction: r.direction,
  status: r.status,
  reason: r.reason as FailureReason | null,
  text: r.text,
  attachment: r.attachment as Attachment | null,
  template: r.template as MessageContent['template'],
  keyboard: r.keyboard as Keyboard | null,
  quotedMessageId: r.quoted_message_id,
  crmUserId: r.crm_user_id,
  resetUnanswered: r.reset_unanswered,
  messengerMessageId: r.messenger_message_id,
  createdAt: r.created_at,
  sentAt: r.sent_at,
  deliveredAt: r.delivered_at,
  readAt: r.read_at,
  editedAt: r.edited_at,
  deletedAt: r.deleted_at,
});

const columns = (m: MessageRecord) => ({
  chat_ref: m.chatRef,
  status: m.status,
  reason: m.reason,
  text: m.text,
  attachment: json(m.attachment),
  template: json(m.template),
  keyboard: json(m.keyboard),
  messenger_message_id: m.messengerMessageId,
  sent_at: m.sentAt,
  delivered_at: m.deliveredAt,
  read_at: m.readAt,
  edited_at: m.editedAt,
  deleted_at: m.deletedAt,
});

export function messageRepository(db: Kysely<DatabaseSchema>): MessageRepository {
  return {
    async insert(m) {
      await db
        .insertInto('messages')
        .values({
          id: m.id,
          request_id: m.requestId,
          account_id: m.accountId,
          channel_id: m.channelId,
          direction: m.direction,
          quoted_message_id: m.quotedMessageId,
          crm_user_id: m.crmUserId,
          reset_unanswered: m.resetUnanswered,
          created_at: m.createdAt,
          ...columns(m),
        })
        .execute();
    },
    async get(accountId, id) {
      const row = await db.selectFrom('messages').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
      return row && toRecord(row);
    },
    async getForUpdate(id) {
      const row = await db.selectFrom('messages').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
      return row && toRecord(row);
    },
    async findByMessengerId(channelId, messengerMessageId) {
      const row = await db
        .selectFrom('messages')
        .selectAll()
        .where('channel_id', '=', channelId)
        .where('messenger_message_id', '=', messengerMessageId)
        .executeTakeFirst();
      return row && toRecord(row);
    },
    async update(m) {
      await db.updateTable('messages').set(columns(m)).where('id', '=', m.id).execute();
    },
    async moveToChat(from, to) {
      await db.updateTable('messages').set({ chat_ref: to }).where('chat_ref', '=', from).execute();
    },
  };
}
