import { sql, type Kysely } from 'kysely';
import type { WebhookDeliveryRepository } from '../../core/webhooks/ports.ts';
import type { DatabaseSchema } from '../schema.ts';
import { deliveryClaims } from './webhook-delivery-claims.ts';

type Db = Kysely<DatabaseSchema>;

/**
 * Serialises every change of a lane's head within the transaction: fan-out and reopening of one
 * (account, lane) never interleave. One statement takes every lock, always in the same (hash) order, so
 * two transactions locking overlapping lanes cannot deadlock.
 */
export async function lockLanes(db: Db, keys: Iterable<string>): Promise<void> {
  const unique = [...new Set(keys)];
  if (unique.length === 0) return;
  await sql`
    select pg_advisory_xact_lock(k) from (
      select distinct hashtextextended(key, 0) as k from (values ${sql.join(unique.map((k) => sql`(${k}::text)`))}) as l(key)
      order by 1) ordered`.execute(db);
}

export function webhookDeliveryRepository(db: Db): WebhookDeliveryRepository {
  return {
    ...deliveryClaims(db),

    async reopen(subscriptionId, which, now) {
      const subscription = await db.selectFrom('webhook_subscriptions').select('account_id').where('id', '=', subscriptionId).executeTakeFirst();
      if (!subscription) return [];
      let query = db.selectFrom('webhook_deliveries').select(['id', 'lane']).where('subscription_id', '=', subscriptionId);
      query =
        'eventId' in which
          ? query.where('event_id', '=', which.eventId).where('status', 'in', ['delivered', 'failed'])
          : query.where('status', '=', 'failed').where('created_at', '>=', which.failedSince);
      const targets = await query.execute();
      if (targets.length === 0) return [];
      await lockLanes(
        db,
        targets.map((t) => `${subscription.account_id}|${t.lane}`),
      );
      const reopened = await db
        .updateTable('webhook_deliveries')
        .set({ status: 'pending', attempts: 0, next_attempt_at: now, batch_id: null, lease_until: null, delivered_at: null })
        .where('id', 'in', targets.map((t) => t.id))
        .where('status', 'in', ['delivered', 'failed'])
        .returning(['event_id', 'seq'])
        .execute();
      return reopened.sort((a, b) => Number(BigInt(a.seq) - BigInt(b.seq))).map((r) => r.event_id);
    },

    async list(subscriptionId, { status, before, limit }) {
      let query = db.selectFrom('webhook_deliveries').selectAll().where('subscription_id', '=', subscriptionId);
      if (status) query = query.where('status', '=', status);
      if (before) query = query.where('created_at', '<', before);
      const rows = await query.orderBy('created_at', 'desc').orderBy('seq', 'desc').limit(limit).execute();
      return rows.map((r) => ({
        eventId: r.event_id,
        eventName: r.event_name,
        status: r.status,
        attempts: r.attempts,
        createdAt: r.created_at,
        nextAttemptAt: r.status === 'pending' ? r.next_attempt_at : null,
        deliveredAt: r.delivered_at,
        lastStatusCode: r.last_status_code,
        lastError: r.last_error,
      }));
    },

    async attempts(subscriptionId, { before, limit }) {
      let query = db.selectFrom('webhook_attempts').selectAll().where('subscription_id', '=', subscriptionId);
      if (before) query = query.where('attempted_at', '<', before);
      const rows = await query.orderBy('attempted_at', 'desc').orderBy('id').limit(limit).execute();
      return rows.map((r) => ({
        id: r.id,
        idempotency_key: r.idempotency_key,
        event: r.event_name,
        event_ids: r.event_ids,
        attemptedAt: r.attempted_at,
        status_code: r.status_code,
        latency_ms: r.latency_ms,
        error: r.error,
        outcome: r.outcome,
      }));
    },

    async prune(before, limit) {
      const attempts = await sql`
        delete from webhook_attempts where id in (select id from webhook_attempts where attempted_at < ${before} limit ${limit})`.execute(db);
      const deliveries = await sql`
        delete from webhook_deliveries where id in (
          select id from webhook_deliveries where status in ('delivered', 'failed') and created_at < ${before} limit ${limit})`.execute(db);
      return Number(attempts.numAffectedRows ?? 0n) + Number(deliveries.numAffectedRows ?? 0n);
    },

    async has(subscriptionId, eventId) {
      const row = await db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('subscription_id', '=', subscriptionId)
        .where('event_id', '=', eventId)
        .executeTakeFirst();
      return row !== undefined;
    },
  };
}
