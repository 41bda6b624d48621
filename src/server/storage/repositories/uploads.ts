import { sql, type Kysely } from 'kysely';
import type { UploadRecord, UploadRepository } from '../../core/uploads/ports.ts';
import type { DatabaseSchema } from '../schema.ts';
import type { UploadFiles } from '../upload-files.ts';
import { inOwnTransaction } from './own-transaction.ts';

/** The advisory lock namespace under which one account's uploads are weighed against its quota one at a time. */
const QUOTA_LOCK = 0x75706c64;

/**
 * Uploads: the record in the table, the bytes in the table too on PostgreSQL (every process, on any machine, serves
 * every link), on disk beside the embedded database (`files`), whose one connection a 20 MB parameter would hold
 * for seconds. The record comes first, weighed against the quota under a lock of its account and committed at once
 * (a few milliseconds), and the bytes after it, outside the lock: an account's uploads at the same moment are
 * weighed one after the other without waiting for each other's bytes, and hold no pooled connection while they
 * wait. A failed transfer takes its record back. A crash between the two leaves a record without bytes, which
 * answers as gone (`open`) and is pruned with the rest; one between writing a file and renaming it whole, or
 * between pruning a record and removing its file, leaves a file that `removeStrays` removes.
 */
export function uploadRepository(db: Kysely<DatabaseSchema>, files: UploadFiles | null): UploadRepository {
  return {
    async insertWithinQuota(u, content, quota) {
      const outcome = await inOwnTransaction(db, async (trx) => {
        // One upload of an account at a time from here to the commit: the next one counts this one's bytes.
        await sql`select pg_advisory_xact_lock(${QUOTA_LOCK}, hashtext(${u.accountId}))`.execute(trx);
        const row = await trx
          .selectFrom('uploads')
          .select((e) => e.fn.coalesce(e.fn.sum<string>('size'), e.val('0')).as('bytes'))
          .where('account_id', '=', u.accountId)
          .where('created_at', '>=', quota.since)
          .where('received', '=', false)
          .executeTakeFirstOrThrow();
        const usedBytes = Number(row.bytes);
        if (!u.received && usedBytes + u.size > quota.limitBytes) return { stored: false, usedBytes };
        await trx
          .insertInto('uploads')
          .values({ id: u.id, account_id: u.accountId, name: u.name, mimetype: u.mimetype, size: u.size, sha1: u.sha1, content: null, created_at: u.createdAt, received: u.received })
          .execute();
        return { stored: true, usedBytes };
      });
      if (!outcome.stored) return outcome;
      try {
        if (files) await files.write(u.id, content);
        else await db.updateTable('uploads').set({ content }).where('id', '=', u.id).execute();
      } catch (err) {
        await db.deleteFrom('uploads').where('id', '=', u.id).execute().catch(() => {});
        await files?.remove([u.id]);
        throw err;
      }
      return outcome;
    },
    async open(id) {
      const r = await db.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirst();
      if (!r) return undefined;
      const content = r.content ? Buffer.from(r.content) : await files?.read(id);
      if (!content) return undefined;
      const upload: UploadRecord = { id: r.id, accountId: r.account_id, name: r.name, mimetype: r.mimetype, size: r.size, sha1: r.sha1, createdAt: r.created_at, received: r.received };
      return { upload, content };
    },
    async prune(before, limit) {
      // The oldest first, a batch at a time (the retention pass repeats it), through the index on created_at.
      const { rows } = await sql<{ id: string }>`
        delete from uploads where id in (select id from uploads where created_at < ${before} order by created_at limit ${limit})
        returning id`.execute(db);
      await files?.remove(rows.map((r) => r.id));
      return rows.length;
    },
    async removeStrays(before) {
      if (!files) return 0;
      return files.removeStrays(before, async (ids) => {
        if (ids.length === 0) return new Set();
        const rows = await db.selectFrom('uploads').select('id').where('id', 'in', ids).execute();
        return new Set(rows.map((r) => r.id));
      });
    },
  };
}
