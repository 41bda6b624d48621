import { sql, type Kysely, type Selectable } from 'kysely';
import { exportColumns } from '../../../contract/exports.ts';
import type { ExportRecord, ExportRepository } from '../../core/exports/ports.ts';
import type { DatabaseSchema, ExportsTable } from '../schema.ts';
import { inOwnTransaction } from './own-transaction.ts';

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
      // (which materialises every result) as on PostgreSQL. The page comes back as one JSON value, each
      // message an array of the file's values already formatted as text, with its cursor at the end: one
      // field to decode instead of twenty per message, which on the embedded database is most of an export's
      // time. The cursor keeps created_at as the database's own text, so no precision is lost between pages.
      const utc = (column: 'm.created_at' | 'm.edited_at' | 'm.deleted_at') =>
        sql<string | null>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
      const channel = scope.channelId === null ? sql`` : sql`and m.channel_id = ${scope.channelId}`;
      const from = after === null ? sql`` : sql`and (m.created_at, m.seq) > (${after.at}::timestamptz, ${after.seq}::bigint)`;
      const page = sql<{ page: string | null }>`
        select json_agg(json_build_array(
          m.id::text, ${utc('m.created_at')}, m.channel_id::text, ch.transport, ch.name, c.chat_type, c.chat_id,
          c.name, m.direction, m.status, m.reason, m.text, m.attachment->>'url', m.attachment->>'name',
          m.template->>'id', m.crm_user_id, m.quoted_message_id::text, ${utc('m.edited_at')}, ${utc('m.deleted_at')},
          m.created_at::text, m.seq::text) order by m.created_at, m.seq)::text as page
        from (
          select m.* from messages m
          where m.account_id = ${scope.accountId} and m.created_at >= ${scope.startAt} and m.created_at < ${scope.endAt} ${channel} ${from}
          order by m.created_at, m.seq limit ${limit}
        ) m
        join chats c on c.id = m.chat_ref
        join channels ch on ch.id = m.channel_id`;
      // Each page must walk the index from the cursor and stop after `limit` rows. Without fresh statistics
      // (PGlite never analyzes by itself) the planner may instead fetch every remaining row of the period
      // and sort it, once per page: quadratic over a large export. These settings leave it the index walk.
      const text = await inOwnTransaction(db, async (trx) => {
        for (const setting of ['enable_bitmapscan', 'enable_seqscan', 'enable_sort', 'enable_incremental_sort']) {
          await sql`select set_config(${setting}, 'off', true)`.execute(trx);
        }
        return (await page.execute(trx)).rows[0]?.page ?? null;
      });
      const rows = text === null ? [] : (JSON.parse(text) as (string | null)[][]);
      // The cursor's two values come off every record, leaving the file's columns.
      const cursor = rows.map((r) => r.splice(exportColumns.length)).at(-1);
      return { rows, next: rows.length === limit && cursor ? { at: cursor[0]!, seq: cursor[1]! } : null };
    },
  };
}
