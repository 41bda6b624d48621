import { sql, type Kysely, type Selectable } from 'kysely';
import type { ExportRecord, ExportRepository } from '../../core/exports/ports.ts';
import type { DatabaseSchema, ExportsTable } from '../schema.ts';

const toRecord = (r: Selectable<ExportsTable>): ExportRecord => ({
  id: r.id,
  accountId: r.account_id,
  channelId: r.channel_id,
  startAt: r.start_at,
  endAt: r.end_at,
  status: r.status,
  rowCount: r.row_count,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  completedAt: r.completed_at,
  expiresAt: r.expires_at,
});

export function exportRepository(db: Kysely<DatabaseSchema>): ExportRepository {
  return {
    async insert(e) {
      await db
        .insertInto('exports')
        .values({
          id: e.id,
          account_id: e.accountId,
          channel_id: e.channelId,
          start_at: e.startAt,
          end_at: e.endAt,
          status: e.status,
          row_count: e.rowCount,
          created_at: e.createdAt,
          updated_at: e.updatedAt,
          completed_at: e.completedAt,
          expires_at: e.expiresAt,
        })
        .execute();
    },
    async get(accountId, id) {
      const row = await db.selectFrom('exports').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
      return row && toRecord(row);
    },
    async getByIdForUpdate(id) {
      const row = await db.selectFrom('exports').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
      return row && toRecord(row);
    },
    async update(e) {
      await db
        .updateTable('exports')
        .set({ status: e.status, row_count: e.rowCount, updated_at: e.updatedAt, completed_at: e.completedAt, expires_at: e.expiresAt })
        .where('id', '=', e.id)
        .execute();
    },
    async channelBelongs(accountId, channelId) {
      const row = await db.selectFrom('channels').select('id').where('id', '=', channelId).where('account_id', '=', accountId).executeTakeFirst();
      return row !== undefined;
    },
    async messagePage(scope, after, limit) {
      // Keyset paging on the (account_id, created_at, seq) index: each page is one short query, on PGlite
      // (which materialises every result) as on PostgreSQL. The cursor keeps created_at as the database's
      // own text, so no precision is lost between pages.
      let query = db
        .selectFrom('messages as m')
        .innerJoin('chats as c', 'c.id', 'm.chat_ref')
        .innerJoin('channels as ch', 'ch.id', 'm.channel_id')
        .select([
          'm.id',
          'm.created_at',
          sql<string>`m.created_at::text`.as('cursor_at'),
          'm.seq',
          'm.channel_id',
          'ch.transport',
          'ch.name as channel_name',
          'c.chat_type',
          'c.chat_id',
          'c.name as contact_name',
          'm.direction',
          'm.status',
          'm.reason',
          'm.text',
          sql<string | null>`m.attachment->>'url'`.as('attachment_url'),
          sql<string | null>`m.attachment->>'name'`.as('attachment_name'),
          sql<string | null>`m.template->>'id'`.as('template_id'),
          'm.crm_user_id',
          'm.quoted_message_id',
          'm.edited_at',
          'm.deleted_at',
        ])
        .where('m.account_id', '=', scope.accountId)
        .where('m.created_at', '>=', scope.startAt)
        .where('m.created_at', '<', scope.endAt);
      if (scope.channelId !== null) query = query.where('m.channel_id', '=', scope.channelId);
      if (after !== null) {
        query = query.where((eb) => eb(eb.refTuple('m.created_at', 'm.seq'), '>', eb.tuple(sql<Date>`${after.at}::timestamptz`, sql<string>`${after.seq}::bigint`)));
      }
      const rows = await query.orderBy('m.created_at').orderBy('m.seq').limit(limit).execute();
      const last = rows.at(-1);
      return {
        rows: rows.map((r) => ({
          messageId: r.id,
          createdAt: r.created_at,
          channelId: r.channel_id,
          transport: r.transport,
          channelName: r.channel_name,
          chatType: r.chat_type,
          chatId: r.chat_id,
          contactName: r.contact_name,
          direction: r.direction,
          status: r.status,
          reason: r.reason,
          text: r.text,
          attachmentUrl: r.attachment_url,
          attachmentName: r.attachment_name,
          templateId: r.template_id,
          crmUserId: r.crm_user_id,
          quotedMessageId: r.quoted_message_id,
          editedAt: r.edited_at,
          deletedAt: r.deleted_at,
        })),
        next: rows.length === limit && last ? { at: last.cursor_at, seq: String(last.seq) } : null,
      };
    },
  };
}
