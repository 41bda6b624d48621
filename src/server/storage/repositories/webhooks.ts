import { sql, type Kysely, type Selectable } from 'kysely';
import type { WebhookRepository, WebhookSubscriptionRecord, WebhookV3SettingsRecord } from '../../core/ports.ts';
import type { DatabaseSchema, WebhookSubscriptionsTable, WebhookV3SettingsTable } from '../schema.ts';

const toRecord = (r: Selectable<WebhookSubscriptionsTable>): WebhookSubscriptionRecord => ({
  id: r.id,
  accountId: r.account_id,
  url: r.url,
  event: r.event,
  createdAt: r.created_at,
  status: r.status,
  disabledReason: r.disabled_reason,
  disabledAt: r.disabled_at,
  failingSince: r.failing_since,
  face: r.face,
});

const toV3Settings = (r: Selectable<WebhookV3SettingsTable>): WebhookV3SettingsRecord => ({
  accountId: r.account_id,
  uri: r.uri,
  messagesAndStatuses: r.messages_and_statuses,
  contactsAndDealsCreation: r.contacts_and_deals_creation,
  channelsUpdates: r.channels_updates,
  templateStatus: r.template_status,
  crmKey: r.crm_key,
  updatedAt: r.updated_at,
});

export function webhookRepository(db: Kysely<DatabaseSchema>): WebhookRepository {
  const listOf = async (accountId: string, face: 'v2' | 'v3') => {
    const rows = await db
      .selectFrom('webhook_subscriptions')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('face', '=', face)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toRecord);
  };
  return {
    list: (accountId) => listOf(accountId, 'v2'),
    listV3: (accountId) => listOf(accountId, 'v3'),
    async v3Settings(accountId) {
      const row = await db.selectFrom('webhook_v3_settings').selectAll().where('account_id', '=', accountId).executeTakeFirst();
      return row && toV3Settings(row);
    },
    async saveV3Settings(r) {
      const row = {
        account_id: r.accountId,
        uri: r.uri,
        messages_and_statuses: r.messagesAndStatuses,
        contacts_and_deals_creation: r.contactsAndDealsCreation,
        channels_updates: r.channelsUpdates,
        template_status: r.templateStatus,
        crm_key: r.crmKey,
        updated_at: r.updatedAt,
      };
      const { account_id: _id, ...changes } = row;
      await db.insertInto('webhook_v3_settings').values(row).onConflict((oc) => oc.column('account_id').doUpdateSet(changes)).execute();
    },
    async findOwned(accountId, ids) {
      if (ids.length === 0) return [];
      const rows = await db
        .selectFrom('webhook_subscriptions')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('id', 'in', ids)
        .where('face', '=', 'v2')
        .execute();
      return rows.map(toRecord);
    },
    async insertMany(records) {
      if (records.length === 0) return;
      await db
        .insertInto('webhook_subscriptions')
        .values(records.map((r) => ({ id: r.id, account_id: r.accountId, url: r.url, event: r.event, created_at: r.createdAt, face: r.face ?? 'v2' })))
        .execute();
    },
    async updateMany(accountId, changes) {
      for (const change of changes) {
        await db
          .updateTable('webhook_subscriptions')
          .set({ url: change.url, event: change.event, status: 'active', disabled_reason: null, disabled_at: null, failing_since: null })
          .where('id', '=', change.id)
          .where('account_id', '=', accountId)
          .execute();
        // Deliveries still on their way follow the subscription to its new address, in that address's lanes.
        await db
          .updateTable('webhook_deliveries')
          .set({ endpoint: sql`md5(${change.url})` })
          .where('subscription_id', '=', change.id)
          .where('status', 'in', ['pending', 'sending'])
          .execute();
      }
    },
    async deleteMany(accountId, ids) {
      if (ids.length === 0) return;
      const owned = db.selectFrom('webhook_subscriptions').select('id').where('account_id', '=', accountId).where('id', 'in', ids);
      // The attempt log has no foreign key (migration 0013): its rows go first, with nothing to cascade them.
      await db.deleteFrom('webhook_attempts').where('subscription_id', 'in', owned).execute();
      await db.deleteFrom('webhook_subscriptions').where('account_id', '=', accountId).where('id', 'in', ids).execute();
    },
  };
}
