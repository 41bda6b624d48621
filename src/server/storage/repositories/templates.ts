import type { Kysely, Selectable } from 'kysely';
import type { TemplateCategory, TemplateComponent, TemplateStatus } from '../../../contract/templates.ts';
import type { TemplateRecord, TemplateRepository } from '../../core/templates/ports.ts';
import type { DatabaseSchema, TemplatesTable } from '../schema.ts';

const toRecord = (r: Selectable<TemplatesTable>): TemplateRecord => ({
  id: r.id,
  accountId: r.account_id,
  channelId: r.channel_id,
  name: r.name,
  language: r.language,
  category: r.category as TemplateCategory,
  status: r.status as TemplateStatus,
  components: r.components as TemplateComponent[],
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export function templateRepository(db: Kysely<DatabaseSchema>): TemplateRepository {
  // Templates of a channel deleted with its history kept are out of sight, like the channel.
  const visible = (accountId: string) =>
    db
      .selectFrom('templates as t')
      .innerJoin('channels as ch', 'ch.id', 't.channel_id')
      .selectAll('t')
      .where('t.account_id', '=', accountId)
      .where('ch.deleted_at', 'is', null);
  return {
    async insert(t) {
      await db
        .insertInto('templates')
        .values({
          id: t.id,
          account_id: t.accountId,
          channel_id: t.channelId,
          name: t.name,
          language: t.language,
          category: t.category,
          status: t.status,
          components: JSON.stringify(t.components),
          created_at: t.createdAt,
          updated_at: t.updatedAt,
        })
        .execute();
    },
    async get(accountId, id) {
      const row = await visible(accountId).where('t.id', '=', id).executeTakeFirst();
      return row && toRecord(row);
    },
    async getForUpdate(accountId, id) {
      const row = await visible(accountId).where('t.id', '=', id).forUpdate('t').executeTakeFirst();
      return row && toRecord(row);
    },
    async list(accountId, channelId) {
      let query = visible(accountId);
      if (channelId !== undefined) query = query.where('t.channel_id', '=', channelId);
      const rows = await query.orderBy('t.channel_id').orderBy('t.name').orderBy('t.language').execute();
      return rows.map(toRecord);
    },
    async findForChannel(channelId, id) {
      const row = await db.selectFrom('templates').selectAll().where('channel_id', '=', channelId).where('id', '=', id).executeTakeFirst();
      return row && toRecord(row);
    },
    async exists(channelId, name, language) {
      const row = await db
        .selectFrom('templates')
        .select('id')
        .where('channel_id', '=', channelId)
        .where('name', '=', name)
        .where('language', '=', language)
        .executeTakeFirst();
      return row !== undefined;
    },
    async listForChannel(channelId) {
      const rows = await db.selectFrom('templates').selectAll().where('channel_id', '=', channelId).orderBy('name').orderBy('language').execute();
      return rows.map(toRecord);
    },
    async update(t) {
      await db
        .updateTable('templates')
        .set({ category: t.category, status: t.status, components: JSON.stringify(t.components), updated_at: t.updatedAt })
        .where('id', '=', t.id)
        .execute();
    },
    async remove(id) {
      await db.deleteFrom('templates').where('id', '=', id).execute();
    },
    async updateStatus(id, status, at) {
      await db.updateTable('templates').set({ status, updated_at: at }).where('id', '=', id).execute();
    },
  };
}
