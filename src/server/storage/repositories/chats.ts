import { sql, type Kysely, type Selectable } from 'kysely';
import type { ChatType } from '../../../contract/channels.ts';
import type { ChatRecord, ChatRepository } from '../../core/messages/ports.ts';
import type { ChatsTable, DatabaseSchema } from '../schema.ts';
import type { Transport } from '../../../contract/channels.ts';
import type { Attachment, MessageStatus } from '../../../contract/messages.ts';
import type { ChatKey, ChatListing, ChatListRow } from '../../core/chats/ports.ts';
import type { MessageContent } from '../../core/messages/ports.ts';
import { anyUuid, jsonRows } from './json-rows.ts';

export const toChatRecord = (r: Selectable<ChatsTable>): ChatRecord => ({
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
      if (inserted) return toChatRecord(inserted);
      const existing = await db
        .selectFrom('chats')
        .selectAll()
        .where('channel_id', '=', c.channelId)
        .where('chat_type', '=', c.chatType)
        .where('chat_id', '=', c.chatId)
        .executeTakeFirstOrThrow();
      return toChatRecord(existing);
    },
    async get(accountId, id) {
      const row = await db.selectFrom('chats').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
      return row && toChatRecord(row);
    },
    async findByMessengerId(channelId, chatType, chatId) {
      const row = await db
        .selectFrom('chats')
        .selectAll()
        .where('channel_id', '=', channelId)
        .where('chat_type', '=', chatType)
        .where('chat_id', '=', chatId)
        .executeTakeFirst();
      return row && toChatRecord(row);
    },
    async findPending(channelId, chatType, by) {
      let query = db.selectFrom('chats').selectAll().where('channel_id', '=', channelId).where('chat_type', '=', chatType).where('chat_id', 'is', null);
      query = by.username !== undefined ? query.where('username', '=', by.username) : query.where('phone', '=', by.phone ?? '');
      const row = await query.orderBy('created_at').executeTakeFirst();
      return row && toChatRecord(row);
    },
    async update(c) {
      await db.updateTable('chats').set(columns(c)).where('id', '=', c.id).execute();
    },
    async moveMessengerId(id, from, to) {
      // Another chat may take `to` between any look and this write (a send to the new id creates its chat without
      // the channel's lock): the unique index then refuses it, and only the savepoint is undone, not the caller's work.
      await sql`savepoint chat_move`.execute(db);
      try {
        const result = await db.updateTable('chats').set({ chat_id: to }).where('id', '=', id).where('chat_id', '=', from).executeTakeFirst();
        await sql`release savepoint chat_move`.execute(db);
        return Number(result.numUpdatedRows) > 0;
      } catch (err) {
        if ((err as { code?: unknown }).code !== '23505') throw err;
        await sql`rollback to savepoint chat_move`.execute(db);
        await sql`release savepoint chat_move`.execute(db);
        return false;
      }
    },
    async remove(id) {
      await db.deleteFrom('chats').where('id', '=', id).execute();
    },
    async getMany(ids) {
      if (ids.length === 0) return [];
      const rows = await db.selectFrom('chats').selectAll().where('id', '=', anyUuid(ids)).execute();
      return rows.map(toChatRecord);
    },
    async updateMany(chats) {
      if (chats.length === 0) return;
      // Rows in id order, so two transactions updating overlapping chats lock them in the same order.
      const rows = [...chats].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).map((c) => ({ id: c.id, ...columns(c) }));
      await sql`
        update chats as c set chat_id = v.chat_id, username = v.username, phone = v.phone, name = v.name,
          unanswered = v.unanswered, last_message_at = v.last_message_at
        from ${jsonRows('v', updatedChatColumns, rows)}
        where c.id = ${anyUuid(rows.map((r) => r.id))} and c.id = v.id`.execute(db);
    },
  };
}

const updatedChatColumns = {
  id: 'uuid',
  chat_id: 'text',
  username: 'text',
  phone: 'text',
  name: 'text',
  unanswered: 'int',
  last_message_at: 'timestamptz',
};

/** `%part%` for ILIKE, with the pattern characters of `part` taken literally. */
const containing = (part: string) => `%${part.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A chat (alias `c`) recognised by one of a card's keys. */
export const matchesKey = (k: ChatKey) => {
  if (k.kind === 'chat_id') return sql`(c.chat_type = ${k.chatType} and c.chat_id = ${k.value})`;
  if (k.kind === 'username') return sql`(c.chat_type = ${k.chatType} and lower(ltrim(c.username, '@')) = ${k.value})`;
  return sql`(c.chat_type = ${k.chatType} and c.phone = ${k.value})`;
};

interface ListedRow {
  id: string;
  channel_id: string;
  transport: string;
  channel_name: string | null;
  chat_type: string;
  chat_id: string | null;
  username: string | null;
  phone: string | null;
  name: string | null;
  contact_name: string | null;
  unanswered: number;
  has_unanswered: boolean;
  activity_at: Date;
  activity_key: string;
  lm_id: string | null;
  lm_direction: 'inbound' | 'outbound' | null;
  lm_status: string | null;
  lm_text: string | null;
  lm_attachment: unknown;
  lm_template: unknown;
  lm_created_at: Date | null;
  lm_deleted_at: Date | null;
}

const toListRow = (r: ListedRow): ChatListRow => ({
  id: r.id,
  channelId: r.channel_id,
  transport: r.transport as Transport,
  channelName: r.channel_name,
  chatType: r.chat_type as ChatType,
  chatId: r.chat_id,
  username: r.username,
  phone: r.phone,
  messengerName: r.name,
  contactName: r.contact_name,
  unanswered: r.unanswered,
  activityAt: r.activity_at,
  position: { unanswered: r.has_unanswered, activity: r.activity_key, id: r.id },
  lastMessage:
    r.lm_id === null
      ? null
      : {
          id: r.lm_id,
          direction: r.lm_direction!,
          status: r.lm_status as MessageStatus,
          text: r.lm_text,
          attachment: r.lm_attachment as Attachment | null,
          template: r.lm_template as MessageContent['template'],
          createdAt: r.lm_created_at!,
          deletedAt: r.lm_deleted_at,
        },
});

/**
 * The chat list of the frames: one keyset-paged query ordered by (has unanswered, last activity, id), all
 * descending, on the index of migration 0007. The counterpart's CRM name comes from crm_contacts by chat id,
 * else username, else phone; the last message from the (chat_ref, seq) index.
 */
export function chatListing(db: Kysely<DatabaseSchema>): ChatListing {
  return {
    async listPage(q) {
      if (q.only !== null && q.only.length === 0) return [];
      if (q.channelIds && q.channelIds.length === 0) return [];
      const conditions = [sql`c.account_id = ${q.accountId}`];
      if (q.only !== null) conditions.push(sql`(${sql.join(q.only.map(matchesKey), sql` or `)})`);
      if (q.channelId !== undefined) conditions.push(sql`c.channel_id = ${q.channelId}`);
      if (q.ids !== undefined) conditions.push(sql`c.id = ${anyUuid(q.ids)}`);
      if (q.channelIds) conditions.push(sql`c.channel_id = ${anyUuid(q.channelIds)}`);
      if (q.search !== undefined) {
        const like = containing(q.search);
        const numbers = q.searchNumbersWhole
          ? sql`c.phone = ${q.search} or c.chat_id = ${q.search}`
          : sql`c.phone ilike ${like} or c.chat_id ilike ${like}`;
        conditions.push(sql`(cn.name ilike ${like} or c.name ilike ${like} or c.username ilike ${like} or ${numbers} or lm.text ilike ${like})`);
      }
      if (q.after !== undefined) {
        conditions.push(
          sql`(c.unanswered > 0, coalesce(c.last_message_at, c.created_at), c.id) < (${q.after.unanswered}, ${q.after.activity}::timestamptz, ${q.after.id}::uuid)`,
        );
      }
      const { rows } = await sql<ListedRow>`
        select c.id, c.channel_id, ch.transport, ch.name as channel_name, c.chat_type, c.chat_id, c.username, c.phone, c.name,
          cn.name as contact_name, c.unanswered, c.unanswered > 0 as has_unanswered,
          coalesce(c.last_message_at, c.created_at) as activity_at, to_char(coalesce(c.last_message_at, c.created_at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as activity_key,
          lm.id as lm_id, lm.direction as lm_direction, lm.status as lm_status, lm.text as lm_text, lm.attachment as lm_attachment,
          lm.template as lm_template, lm.created_at as lm_created_at, lm.deleted_at as lm_deleted_at
        from chats c
        join channels ch on ch.id = c.channel_id
        left join lateral (
          select cc.name from crm_contacts cc
          where cc.account_id = c.account_id and cc.chat_type = c.chat_type and (
            (cc.key_kind = 'chat_id' and cc.key_value = c.chat_id)
            or (cc.key_kind = 'username' and cc.key_value = lower(ltrim(c.username, '@')))
            or (cc.key_kind = 'phone' and cc.key_value = c.phone))
          order by case cc.key_kind when 'chat_id' then 0 when 'username' then 1 else 2 end
          limit 1
        ) cn on true
        left join lateral (
          select m.id, m.direction, m.status, m.text, m.attachment, m.template, m.created_at, m.deleted_at
          from messages m where m.chat_ref = c.id order by m.seq desc limit 1
        ) lm on true
        where ${sql.join(conditions, sql` and `)}
        order by c.unanswered > 0 desc, coalesce(c.last_message_at, c.created_at) desc, c.id desc
        limit ${q.limit}`.execute(db);
      return rows.map(toListRow);
    },
    async unansweredTotals(q) {
      if (q.only !== null && q.only.length === 0) return { total: 0, chats: 0 };
      if (q.channelIds && q.channelIds.length === 0) return { total: 0, chats: 0 };
      const only = q.only === null ? sql`` : sql`and (${sql.join(q.only.map(matchesKey), sql` or `)})`;
      const scope = q.channelIds ? sql`${only} and c.channel_id = ${anyUuid(q.channelIds)}` : only;
      const { rows } = await sql<{ total: number; chats: number }>`
        select coalesce(sum(c.unanswered), 0)::int as total, count(*)::int as chats
        from chats c where c.account_id = ${q.accountId} and c.unanswered > 0 ${scope}`.execute(db);
      return rows[0] ?? { total: 0, chats: 0 };
    },
  };
}
