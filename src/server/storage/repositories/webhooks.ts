import { sql, type Kysely, type Selectable } from 'kysely';
import type { WebhookRepository, WebhookSubscriptionRecord } from '../../core/ports.ts';
import type { DatabaseSchema, WebhookSubscriptionsTable } from '../schema.ts';

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
});

export function webhookRepository(db: Kysely<DatabaseSchema>): WebhookRepository {
  return {
    async list(accountId) {
      const rows = await db
        .selectFrom('webhook_subscriptions')
        .selectAll()
        .where('account_id', '=', accountId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(toRecord);
    },
    async findOwned(accountId, ids) {
      if (ids.length === 0) return [];
      const rows = await db
        .selectFrom('webhook_subscriptions')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('id', 'in', ids)
        .execute();
      return rows.map(toRecord);
    },
    async insertMany(records) {
      if (records.length === 0) return;
      await db
        .insertInto('webhook_subscriptions')
        .values(records.map((r) => ({ id: r.id, account_id: r.accountId, url: r.url, event: r.event, created_at: r.createdAt })))
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
