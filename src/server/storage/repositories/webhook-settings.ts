import type { Kysely, Selectable } from 'kysely';
import type { WebhookSettingsRecord, WebhookSettingsRepository } from '../../core/webhooks/ports.ts';
import type { DatabaseSchema, WebhookSettingsTable } from '../schema.ts';

const toRecord = (r: Selectable<WebhookSettingsTable>): WebhookSettingsRecord => ({
  accountId: r.account_id,
  secret: r.secret,
  previousSecret: r.previous_secret,
  previousExpiresAt: r.previous_expires_at,
  batching: r.batching,
  updatedAt: r.updated_at,
});

const toRow = (r: WebhookSettingsRecord) => ({
  account_id: r.accountId,
  secret: r.secret,
  previous_secret: r.previousSecret,
  previous_expires_at: r.previousExpiresAt,
  batching: r.batching,
  updated_at: r.updatedAt,
});

export function webhookSettingsRepository(db: Kysely<DatabaseSchema>): WebhookSettingsRepository {
  const get = async (accountId: string) => {
    const row = await db.selectFrom('webhook_settings').selectAll().where('account_id', '=', accountId).executeTakeFirst();
    return row && toRecord(row);
  };
  return {
    get,
    async ensure(fresh) {
      await db
        .insertInto('webhook_settings')
        .values(toRow(fresh))
        .onConflict((oc) => oc.column('account_id').doNothing())
        .execute();
      const stored = await get(fresh.accountId);
      if (!stored) throw new Error('webhook settings vanished after insert');
      return stored;
    },
    async update(record) {
      const { account_id: _id, ...changes } = toRow(record);
      await db.updateTable('webhook_settings').set(changes).where('account_id', '=', record.accountId).execute();
    },
  };
}
