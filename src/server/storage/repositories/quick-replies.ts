import { sql, type Kysely } from 'kysely';
import type { QuickReply } from '../../../contract/bff-quick-replies.ts';
import type { QuickReplyRepository } from '../../core/quick-replies/quick-replies.ts';
import type { DatabaseSchema } from '../schema.ts';

const columns = ['id', 'shortcut', 'text', 'updated_at'] as const;
const shown = (row: { id: string; shortcut: string; text: string; updated_at: Date }): QuickReply => ({
  id: row.id,
  shortcut: row.shortcut,
  text: row.text,
  updated_at: new Date(row.updated_at).toISOString(),
});

/** A shortcut another reply of the account holds already, whatever its case (the unique index decides). */
const shortcutTaken = (db: Kysely<DatabaseSchema>, accountId: string, shortcut: string, except: string | null) =>
  db
    .selectFrom('quick_replies')
    .select('id')
    .where('account_id', '=', accountId)
    .where(sql<string>`lower(shortcut)`, '=', shortcut.toLowerCase())
    .$if(except !== null, (q) => q.where('id', '!=', except!))
    .executeTakeFirst();

export function quickReplyRepository(db: Kysely<DatabaseSchema>): QuickReplyRepository {
  return {
    async list(accountId) {
      const rows = await db.selectFrom('quick_replies').select(columns).where('account_id', '=', accountId).orderBy(sql`lower(shortcut)`).execute();
      return rows.map(shown);
    },
    async count(accountId) {
      const row = await db.selectFrom('quick_replies').select((e) => e.fn.countAll<string>().as('n')).where('account_id', '=', accountId).executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async create(accountId, input, at) {
      // The index is the arbiter when two agents save the same shortcut at once; the pre-check spares the usual case an error.
      if (await shortcutTaken(db, accountId, input.shortcut, null)) return null;
      const row = await db
        .insertInto('quick_replies')
        .values({ account_id: accountId, shortcut: input.shortcut, text: input.text, created_at: at, updated_at: at })
        .onConflict((oc) => oc.expression(sql`account_id, lower(shortcut)`).doNothing())
        .returning(columns)
        .executeTakeFirst();
      return row ? shown(row) : null;
    },
    async update(accountId, id, input, at) {
      const own = await db.selectFrom('quick_replies').select('id').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
      if (!own) return 'missing';
      if (await shortcutTaken(db, accountId, input.shortcut, id)) return 'taken';
      const row = await db
        .updateTable('quick_replies')
        .set({ shortcut: input.shortcut, text: input.text, updated_at: at })
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .returning(columns)
        .executeTakeFirst();
      return row ? shown(row) : 'missing';
    },
    async delete(accountId, id) {
      const result = await db.deleteFrom('quick_replies').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
