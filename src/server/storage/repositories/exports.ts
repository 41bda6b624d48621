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

/** Runs `work` in a transaction of its own, or in the caller's when the repository is bound to one. */
function inTransaction<T>(db: Kysely<DatabaseSchema>, work: (trx: Kysely<DatabaseSchema>) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}

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
      // (which materialises every result) as on PostgreSQL. Columns come out named and formatted as the file
      // wants them, so rows pass to the CSV writer as they are. The cursor keeps created_at as the database's
      // own text, so no precision is lost between pages.
      const utc = (column: 'm.created_at' | 'm.edited_at' | 'm.deleted_at') =>
        sql<string | null>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
      let query = db
        .selectFrom('messages as m')
        .innerJoin('chats as c', 'c.id', 'm.chat_ref')
        .innerJoin('channels as ch', 'ch.id', 'm.channel_id')
        .select([
          sql<string>`m.id::text`.as('message_id'),
          utc('m.created_at').as('created_at'),
          sql<string>`m.channel_id::text`.as('channel_id'),
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
          sql<string | null>`m.quoted_message_id::text`.as('quoted_message_id'),
          utc('m.edited_at').as('edited_at'),
          utc('m.deleted_at').as('deleted_at'),
          sql<string>`m.created_at::text`.as('cursor_at'),
          sql<string>`m.seq::text`.as('cursor_seq'),
        ])
        .where('m.account_id', '=', scope.accountId)
        .where('m.created_at', '>=', scope.startAt)
        .where('m.created_at', '<', scope.endAt);
      if (scope.channelId !== null) query = query.where('m.channel_id', '=', scope.channelId);
      if (after !== null) {
        query = query.where((eb) => eb(eb.refTuple('m.created_at', 'm.seq'), '>', eb.tuple(sql<Date>`${after.at}::timestamptz`, sql<string>`${after.seq}::bigint`)));
      }
      const page = query.orderBy('m.created_at').orderBy('m.seq').limit(limit);
      // Each page must walk the index from the cursor and stop after `limit` rows. Without fresh statistics
      // (PGlite never analyzes by itself) the planner may instead fetch every remaining row of the period
      // and sort it, once per page: quadratic over a large export. These settings leave it the index walk.
      const rows = await inTransaction(db, async (trx) => {
        for (const setting of ['enable_bitmapscan', 'enable_seqscan', 'enable_sort', 'enable_incremental_sort']) {
          await sql`select set_config(${setting}, 'off', true)`.execute(trx);
        }
        return trx.executeQuery(page.compile()).then((r) => r.rows);
      });
      const last = rows.at(-1);
      return { rows, next: rows.length === limit && last ? { at: last.cursor_at, seq: last.cursor_seq } : null };
    },
  };
}
