import { sql, type Kysely, type Selectable } from 'kysely';
import type { HistoryRow, MessageHistory } from '../../core/chats/ports.ts';
import type { Attachment, FailureReason, Keyboard } from '../../../contract/messages.ts';
import type { MessageContent, MessageRecord, MessageRepository } from '../../core/messages/ports.ts';
import type { DatabaseSchema, MessagesTable } from '../schema.ts';
import { messageSearch } from './message-search.ts';

const json = (value: unknown) => (value === null ? null : JSON.stringify(value));

export const toMessageRecord = (r: Selectable<MessagesTable>): MessageRecord => ({
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
  hold: r.status === 'accepted' && r.hold_reason && r.send_after ? { reason: r.hold_reason, until: new Date(r.send_after) } : null,
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

export const insertValues = (m: MessageRecord) => ({
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
});

/** A chat's message by the messenger's number for it, through the (chat_ref, messenger_message_id) index. */
export const byMessengerIdQuery = (db: Kysely<DatabaseSchema>, chatRef: string, messengerMessageId: string) =>
  db.selectFrom('messages').selectAll().where('chat_ref', '=', chatRef).where('messenger_message_id', '=', messengerMessageId).limit(1);

export function messageRepository(db: Kysely<DatabaseSchema>): MessageRepository {
  return {
    async insert(m) {
      await db.insertInto('messages').values(insertValues(m)).execute();
    },
    async insertMany(messages) {
      if (messages.length === 0) return;
      await db.insertInto('messages').values(messages.map(insertValues)).execute();
    },
    async get(accountId, id) {
      const row = await db.selectFrom('messages').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
      return row && toMessageRecord(row);
    },
    async getForUpdate(id) {
      const row = await db.selectFrom('messages').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
      return row && toMessageRecord(row);
    },
    async update(m) {
      await db.updateTable('messages').set(columns(m)).where('id', '=', m.id).execute();
    },
    async findByMessengerId(chatRef, messengerMessageId, lock) {
      const query = byMessengerIdQuery(db, chatRef, messengerMessageId);
      const row = await (lock ? query.forUpdate() : query).executeTakeFirst();
      return row && toMessageRecord(row);
    },
    async findWithParts(chatRef, messengerMessageId) {
      // Through the (chat_ref, messenger_message_id) index: the number itself, and the range of `<number>:…`.
      const rows = await db
        .selectFrom('messages')
        .selectAll()
        .where('chat_ref', '=', chatRef)
        .where((w) => w.or([w('messenger_message_id', '=', messengerMessageId), sql<boolean>`starts_with(messenger_message_id, ${`${messengerMessageId}:`})`]))
        .orderBy('seq')
        .forUpdate()
        .execute();
      return rows.map(toMessageRecord);
    },
    async outboundUnreadThrough(chatRef, throughId, limit) {
      // Through the (chat_ref, seq) index, backwards from the message read: the latest one read before it bounds the scan.
      const { rows } = await sql<Selectable<MessagesTable>>`
        with through as (select seq from messages where id = ${throughId} and chat_ref = ${chatRef}),
        last_read as (
          select coalesce(max(m.seq), 0) as seq from messages m, through
          where m.chat_ref = ${chatRef} and m.direction = 'outbound' and m.status = 'read' and m.seq <= through.seq)
        select m.* from messages m, through, last_read
        where m.chat_ref = ${chatRef} and m.direction = 'outbound' and m.status in ('sent', 'delivered')
          and m.seq <= through.seq and m.seq > last_read.seq
        order by m.seq
        limit ${limit}
        for update of m`.execute(db);
      return rows.map(toMessageRecord);
    },
    async hasSendUnderWay(chatRef) {
      // Through messages_unsent_idx; leases are in database time, as the send queue takes them.
      const { rows } = await sql<{ id: string }>`
        select id from messages
        where chat_ref = ${chatRef} and status = 'accepted' and request_id is not null and send_lease_until > now()
        limit 1`.execute(db);
      return rows.length > 0;
    },
    async markMovedFrom(chatRef, formerChatId) {
      // One statement through the (chat_ref, messenger_message_id) index; the '/' test keeps numbers marked already.
      await sql`
        update messages set messenger_message_id = ${formerChatId} || '/' || messenger_message_id
        where chat_ref = ${chatRef} and messenger_message_id is not null and strpos(messenger_message_id, '/') = 0`.execute(db);
    },
    async moveToChat(from, to) {
      await db.updateTable('messages').set({ chat_ref: to }).where('chat_ref', '=', from).execute();
    },
  };
}

/** The comparison operators a history bound may use, spelled out so nothing else reaches the SQL text. */
/** `text` as a LIKE pattern matching it anywhere, its own wildcards taken literally. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const SEQ_OPS = { '<': '<', '>': '>', '>=': '>=' } as const;

type HistoryResult = Selectable<MessagesTable> & {
  seq_text: string;
  q_id: string | null;
  q_direction: 'inbound' | 'outbound' | null;
  q_text: string | null;
  q_attachment: unknown;
  q_deleted_at: Date | null;
  author_name: string | null;
};

const toHistoryRow = (r: HistoryResult): HistoryRow => ({
  ...toMessageRecord(r),
  seq: r.seq_text,
  quoted:
    r.q_id === null
      ? null
      : { id: r.q_id, direction: r.q_direction!, text: r.q_text, attachment: r.q_attachment as Attachment | null, deletedAt: r.q_deleted_at },
  authorName: r.author_name,
});

/**
 * A chat's history for the frames, keyset-paged by seq on the (chat_ref, seq) index, each message with what
 * it quotes and its author's CRM name.
 */
export function messageHistory(db: Kysely<DatabaseSchema>): MessageHistory {
  return {
    ...messageSearch(db),
    async historyPage(q) {
      const bound = q.bound ? sql`and m.seq ${sql.raw(SEQ_OPS[q.bound.op])} ${q.bound.seq}::bigint` : sql``;
      // The page is cut first, then joined: joined before the limit, the quote and the author were looked up for
      // every message of the chat whenever the planner read the chat whole (as it does before its first ANALYZE).
      const order = sql.raw(q.order === 'asc' ? 'asc' : 'desc');
      const contains = q.textContains === undefined ? sql`` : sql`and m.deleted_at is null and m.text ilike ${likePattern(q.textContains)} escape '\\'`;
      const { rows } = await sql<HistoryResult>`
        select m.*, m.seq::text as seq_text, qm.id as q_id, qm.direction as q_direction, qm.text as q_text,
          qm.attachment as q_attachment, qm.deleted_at as q_deleted_at, u.name as author_name
        from (
          select * from messages m
          where m.account_id = ${q.accountId} and m.chat_ref = ${q.chatRef} ${bound} ${contains}
          order by m.seq ${order}
          limit ${q.limit}
        ) m
        left join messages qm on qm.id = m.quoted_message_id and qm.account_id = m.account_id
        left join crm_users u on u.account_id = m.account_id and u.id = m.crm_user_id
        order by m.seq ${order}`.execute(db);
      return rows.map(toHistoryRow);
    },
    async historySeq(accountId, chatRef, messageId) {
      const row = await db
        .selectFrom('messages')
        .select(sql<string>`seq::text`.as('seq'))
        .where('id', '=', messageId)
        .where('account_id', '=', accountId)
        .where('chat_ref', '=', chatRef)
        .executeTakeFirst();
      return row?.seq;
    },
    async historyHas(accountId, chatRef, bound) {
      const { rows } = await sql<{ one: number }>`
        select 1 as one from messages
        where account_id = ${accountId} and chat_ref = ${chatRef} and seq ${sql.raw(SEQ_OPS[bound.op])} ${bound.seq}::bigint
        limit 1`.execute(db);
      return rows.length > 0;
    },
  };
}
