import { sql, type Kysely } from 'kysely';
import type { WebhookDeliveryRepository } from '../../core/webhooks/ports.ts';
import type { DatabaseSchema } from '../schema.ts';
import { deliveryClaims } from './webhook-delivery-claims.ts';
import { LaneCursors } from './webhook-lane-heads.ts';

type Db = Kysely<DatabaseSchema>;

/** `cursors`: where this process's claims go on from, at each endpoint (one map for all its repositories). */
export function webhookDeliveryRepository(db: Db, cursors: LaneCursors = new LaneCursors()): WebhookDeliveryRepository {
  return {
    ...deliveryClaims(db, cursors),

    async reopen(subscriptionId, which, now) {
      // Reopened rows keep their place (seq) in their lane; a reopen racing another changes each row once.
      let update = db
        .updateTable('webhook_deliveries')
        .set({ status: 'pending', attempts: 0, next_attempt_at: now, batch_id: null, lease_until: null, delivered_at: null })
        .where('subscription_id', '=', subscriptionId);
      update =
        'eventId' in which
          ? update.where('event_id', '=', which.eventId).where('status', 'in', ['delivered', 'failed'])
          : update.where('status', '=', 'failed').where('created_at', '>=', which.failedSince);
      const reopened = await update.returning(['event_id', 'seq']).execute();
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
      // Rows another process is deleting (or a redelivery is reopening) are stepped over, not waited for.
      const attempts = await sql`
        delete from webhook_attempts where id in (
          select id from webhook_attempts where attempted_at < ${before} limit ${limit} for update skip locked)`.execute(db);
      const deliveries = await sql`
        delete from webhook_deliveries where id in (
          select id from webhook_deliveries where status in ('delivered', 'failed') and created_at < ${before} limit ${limit} for update skip locked)`.execute(db);
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
