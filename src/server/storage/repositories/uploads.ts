import { sql, type Kysely } from 'kysely';
import type { UploadRecord, UploadRepository } from '../../core/uploads/ports.ts';
import type { DatabaseSchema } from '../schema.ts';
import type { UploadFiles } from '../upload-files.ts';

/**
 * Uploads: the record in the table, the bytes in the table too on PostgreSQL (every process, on any machine, serves
 * every link), on disk beside the embedded database (`files`), whose one connection a 20 MB parameter would hold
 * for seconds. On disk the file is written before its row and removed after it, so a row always has its file; a
 * crash between the two leaves a file without a row, which nothing links to.
 */
export function uploadRepository(db: Kysely<DatabaseSchema>, files: UploadFiles | null): UploadRepository {
  return {
    async insert(u, content) {
      if (files) await files.write(u.id, content);
      try {
        await db
          .insertInto('uploads')
          .values({ id: u.id, account_id: u.accountId, name: u.name, mimetype: u.mimetype, size: u.size, sha1: u.sha1, content: files ? null : content, created_at: u.createdAt })
          .execute();
      } catch (err) {
        await files?.remove([u.id]);
        throw err;
      }
    },
    async open(id) {
      const r = await db.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirst();
      if (!r) return undefined;
      const content = r.content ? Buffer.from(r.content) : await files?.read(id);
      if (!content) return undefined;
      const upload: UploadRecord = { id: r.id, accountId: r.account_id, name: r.name, mimetype: r.mimetype, size: r.size, sha1: r.sha1, createdAt: r.created_at };
      return { upload, content };
    },
    async bytesSince(accountId, since) {
      const row = await db
        .selectFrom('uploads')
        .select((e) => e.fn.coalesce(e.fn.sum<string>('size'), e.val('0')).as('bytes'))
        .where('account_id', '=', accountId)
        .where('created_at', '>=', since)
        .executeTakeFirstOrThrow();
      return Number(row.bytes);
    },
    async prune(before, limit) {
      // The oldest first, a batch at a time (the retention pass repeats it), through the index on created_at.
      const { rows } = await sql<{ id: string }>`
        delete from uploads where id in (select id from uploads where created_at < ${before} order by created_at limit ${limit})
        returning id`.execute(db);
      await files?.remove(rows.map((r) => r.id));
      return rows.length;
    },
  };
}
