import type { Kysely, Selectable } from 'kysely';
import type { ChatType } from '../../../contract/channels.ts';
import type { ChatRecord, ChatRepository } from '../../core/messages/ports.ts';
import type { ChatsTable, DatabaseSchema } from '../schema.ts';

const toRecord = (r: Selectable<ChatsTable>): ChatRecord => ({
  id: r.id,
  accountId: r.account_id,
  channelId: r.channel_id,
  chatType: r.chat_type as ChatType,
  chatId: r.chat_id,
  username: r.username,
  phone: r.phone,
  name: r.name,
  unanswered: r.unanswered,
  lastMessageAt: r.last_message_at,
  createdAt: r.created_at,
});

const columns = (c: ChatRecord) => ({
  chat_id: c.chatId,
  username: c.username,
  phone: c.phone,
  name: c.name,
  unanswered: c.unanswered,
  last_message_at: c.lastMessageAt,
});

export function chatRepository(db: Kysely<DatabaseSchema>): ChatRepository {
  return {
    async insert(c) {
      const inserted = await db
        .insertInto('chats')
        .values({ id: c.id, account_id: c.accountId, channel_id: c.channelId, chat_type: c.chatType, created_at: c.createdAt, ...columns(c) })
        .onConflict((oc) => oc.columns(['channel_id', 'chat_type', 'chat_id']).where('chat_id', 'is not', null).doNothing())
        .returningAll()
        .executeTakeFirst();
      if (inserted) return toRecord(inserted);
      const existing = await db
        .selectFrom('chats')
        .selectAll()
        .where('channel_id', '=', c.channelId)
        .where('chat_type', '=', c.chatType)
        .where('chat_id', '=', c.chatId)
        .executeTakeFirstOrThrow();
      return toRecord(existing);
    },
    async get(accountId, id) {
      const row = await db.selectFrom('chats').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
      return row && toRecord(row);
    },
    async findByMessengerId(channelId, chatType, chatId) {
      const row = await db
        .selectFrom('chats')
        .selectAll()
        .where('channel_id', '=', channelId)
        .where('chat_type', '=', chatType)
        .where('chat_id', '=', chatId)
        .executeTakeFirst();
      return row && toRecord(row);
    },
    async findPending(channelId, chatType, by) {
      let query = db.selectFrom('chats').selectAll().where('channel_id', '=', channelId).where('chat_type', '=', chatType).where('chat_id', 'is', null);
      query = by.username !== undefined ? query.where('username', '=', by.username) : query.where('phone', '=', by.phone ?? '');
      const row = await query.orderBy('created_at').executeTakeFirst();
      return row && toRecord(row);
    },
    async update(c) {
      await db.updateTable('chats').set(columns(c)).where('id', '=', c.id).execute();
    },
    async remove(id) {
      await db.deleteFrom('chats').where('id', '=', id).execute();
    },
  };
}
