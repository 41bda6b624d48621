import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { DeliveryKick, WebhookDeliveryRepository } from '../../core/webhooks/ports.ts';
import type { DatabaseSchema } from '../schema.ts';

type Db = Kysely<DatabaseSchema>;

const OPEN = ['pending', 'sending'] as const;

/** Events without an ordering key are each a lane of their own. */
const laneOf = (event: { id: string; orderingKey: string | null }): string => event.orderingKey ?? `event:${event.id}`;

/**
 * Serialises every change of a lane's head within the transaction: fan-out, settlement and reopening of
 * one (account, lane) never interleave, so a new head is always seen by whoever commits second.
 */
async function lockLanes(db: Db, accountId: string, lanes: Iterable<string>): Promise<void> {
  for (const lane of [...new Set(lanes)].sort()) {
    await sql`select pg_advisory_xact_lock(hashtextextended(${`${accountId}|${lane}`}, 0))`.execute(db);
  }
}

/** No open delivery precedes `d` in its lane. */
const isHead = sql<boolean>`not exists (
  select 1 from webhook_deliveries p
  where p.account_id = d.account_id and p.endpoint = d.endpoint and p.lane = d.lane and p.seq < d.seq
    and p.status in ('pending', 'sending'))`;

/** The pending heads of these lanes, marked as kicked: each gets a job. */
async function pendingHeads(db: Db, accountId: string, endpoints: string[], lanes: string[], now: Date): Promise<DeliveryKick[]> {
  if (endpoints.length === 0 || lanes.length === 0) return [];
  // rank, not row_number: one event routed twice to one URL (two subscriptions) heads the lane twice.
  const { rows } = await sql<{ id: string; endpoint: string; next_attempt_at: Date | null; status: string }>`
    select id, endpoint, next_attempt_at, status from (
      select id, endpoint, next_attempt_at, status, rank() over (partition by endpoint, lane order by seq) as place
      from webhook_deliveries
      where account_id = ${accountId} and endpoint in (${sql.join(endpoints)}) and lane in (${sql.join(lanes)})
        and status in ('pending', 'sending')) open
    where place = 1`.execute(db);
  const heads = rows.filter((r) => r.status === 'pending');
  if (heads.length === 0) return [];
  const kicks = heads.map((r) => ({
    deliveryId: r.id,
    endpoint: r.endpoint,
    notBefore: r.next_attempt_at && r.next_attempt_at > now ? r.next_attempt_at : now,
  }));
  await markKicked(db, kicks);
  return kicks;
}

async function markKicked(db: Db, kicks: DeliveryKick[]): Promise<void> {
  if (kicks.length === 0) return;
  const at = sql.join(kicks.map((k) => sql`(${k.deliveryId}::uuid, ${k.notBefore}::timestamptz)`));
  await sql`update webhook_deliveries d set kicked_at = k.at from (values ${at}) as k(id, at) where d.id = k.id`.execute(db);
}

export function webhookDeliveryRepository(db: Db): WebhookDeliveryRepository {
  return {
    async fanOut(event, now) {
      const lane = laneOf(event);
      await lockLanes(db, event.accountId, [lane]);
      // Earlier events of the key that no dispatch has handed over yet are routed first, whatever order the
      // dispatch jobs run in: the lane must hold them before this one.
      const routed =
        event.orderingKey === null
          ? sql`e.id = ${event.id}`
          : sql`e.account_id = ${event.accountId} and e.ordering_key = ${event.orderingKey}
                and (e.id = ${event.id} or (e.dispatched_at is null and e.seq < (select seq from events where id = ${event.id})))`;
      // One statement routes the events, and names the new deliveries that head their lane: nothing open
      // before them, neither stored before nor inserted with them.
      const { rows } = await sql<{ id: string; endpoint: string }>`
        with inserted as (
          insert into webhook_deliveries (id, subscription_id, account_id, event_id, event_name, endpoint, lane, seq, status, attempts, next_attempt_at, kicked_at, created_at)
          select gen_random_uuid(), s.id, e.account_id, e.id, e.name, md5(s.url), ${lane}, e.seq, 'pending', 0, ${now}, ${now}, e.created_at
          from events e
          join webhook_subscriptions s on s.account_id = e.account_id and s.event = e.name and s.status = 'active'
          where ${routed}
          on conflict (event_id, subscription_id) do nothing
          returning id, endpoint, seq)
        select i.id, i.endpoint from inserted i
        where not exists (select 1 from inserted j where j.endpoint = i.endpoint and j.seq < i.seq)
          and not exists (select 1 from webhook_deliveries p
                          where p.account_id = ${event.accountId} and p.endpoint = i.endpoint and p.lane = ${lane}
                            and p.seq < i.seq and p.status in ('pending', 'sending'))`.execute(db);
      return rows.map((r) => ({ deliveryId: r.id, endpoint: r.endpoint, notBefore: now }));
    },

    async claim(deliveryId, now, leaseUntil, batchLimit) {
      const { rows } = await sql<{
        subscription_id: string;
        account_id: string;
        url: string;
        subscription_status: string;
        failing_since: Date | null;
        status: string;
        lease_until: Date | null;
        next_attempt_at: Date | null;
        batch_id: string | null;
        event_id: string;
        event_name: string;
        batching: boolean;
        head: boolean;
      }>`
        select d.subscription_id, s.account_id, s.url, s.status as subscription_status, s.failing_since, d.status,
               d.lease_until, d.next_attempt_at, d.batch_id, d.event_id, d.event_name,
               coalesce(ws.batching, false) as batching, ${isHead} as head
        from webhook_deliveries d
        join webhook_subscriptions s on s.id = d.subscription_id
        left join webhook_settings ws on ws.account_id = s.account_id
        where d.id = ${deliveryId}
        for update of d skip locked`.execute(db);
      const d = rows[0];
      if (!d || d.status === 'delivered' || d.status === 'failed') return { skipped: 'gone' };
      if (d.subscription_status !== 'active') return { skipped: 'disabled' };
      if (d.status === 'sending' && d.lease_until && d.lease_until > now) return { skipped: 'busy' };
      if (d.next_attempt_at && d.next_attempt_at > now) return { skipped: 'not-due' };
      if (!d.head) return { skipped: 'waiting' };

      let members = [deliveryId];
      let batchId = d.batch_id;
      if (batchId) {
        // A batch is retried as it was formed: same items, same idempotency key.
        const { rows: batch } = await sql<{ id: string }>`
          select id from webhook_deliveries where batch_id = ${batchId} and status in ('pending', 'sending')`.execute(db);
        members = batch.map((r) => r.id);
      } else if (d.batching && batchLimit > 1) {
        // Rows another claim is taking right now are skipped, not waited for.
        const { rows: more } = await sql<{ id: string }>`
          select d.id from webhook_deliveries d
          where d.subscription_id = ${d.subscription_id} and d.event_name = ${d.event_name} and d.status = 'pending'
            and d.batch_id is null and d.id <> ${deliveryId} and d.next_attempt_at <= ${now} and ${isHead}
          order by d.seq limit ${batchLimit - 1}
          for update skip locked`.execute(db);
        if (more.length > 0) {
          batchId = randomUUID();
          members = [deliveryId, ...more.map((r) => r.id)];
        }
      }
      const { rows: claimed } = await sql<{ id: string }>`
        update webhook_deliveries set status = 'sending', lease_until = ${leaseUntil}, batch_id = ${batchId}
        where id in (${sql.join(members)}) and (status = 'pending' or (status = 'sending' and lease_until <= ${now}))
        returning id`.execute(db);
      if (!claimed.some((r) => r.id === deliveryId)) return { skipped: 'busy' };
      const { rows: items } = await sql<{ id: string; event_id: string; attempts: number; payload: unknown; created_at: Date }>`
        select d.id, d.event_id, d.attempts, e.payload, e.created_at
        from webhook_deliveries d join events e on e.id = d.event_id
        where d.id in (${sql.join(claimed.map((r) => r.id))})
        order by d.seq`.execute(db);
      return {
        claimed: {
          subscription: { id: d.subscription_id, accountId: d.account_id, url: d.url, failingSince: d.failing_since },
          key: batchId ?? d.event_id,
          eventName: d.event_name,
          items: items.map((r) => ({ deliveryId: r.id, eventId: r.event_id, payload: r.payload, createdAt: r.created_at, attempts: r.attempts })),
        },
      };
    },

    async settle(s) {
      const ids = s.work.items.map((i) => i.deliveryId);
      const subscriptionId = s.work.subscription.id;
      const { rows: laneRows } = await sql<{ lane: string; endpoint: string }>`
        select distinct lane, endpoint from webhook_deliveries where id in (${sql.join(ids)})`.execute(db);
      const lanes = laneRows.map((r) => r.lane);
      const endpoints = [...new Set(laneRows.map((r) => r.endpoint))];
      await lockLanes(db, s.work.subscription.accountId, lanes);
      // Deleted while the POST was under way: nothing is left to record.
      const exists = await db.selectFrom('webhook_subscriptions').select('id').where('id', '=', subscriptionId).executeTakeFirst();
      if (!exists) return [];

      const common = { lease_until: null, last_status_code: s.statusCode, last_error: s.error };
      const bump = sql<number>`attempts + 1`;
      const sending = (ids: string[]) =>
        db.updateTable('webhook_deliveries').where('id', 'in', ids).where('status', '=', 'sending');
      let kicks: DeliveryKick[] = [];
      if (s.outcome === 'delivered') {
        await sending(ids).set({ ...common, status: 'delivered', delivered_at: s.at, attempts: bump }).execute();
        await db.updateTable('webhook_subscriptions').set({ failing_since: null }).where('id', '=', subscriptionId).execute();
      } else {
        await db
          .updateTable('webhook_subscriptions')
          .set({ failing_since: sql`coalesce(failing_since, ${s.at})` })
          .where('id', '=', subscriptionId)
          .execute();
        if (s.outcome === 'retry' && s.nextAttemptAt) {
          const next = s.nextAttemptAt;
          const reopened = await sending(ids)
            .set({ ...common, status: 'pending', attempts: bump, next_attempt_at: next })
            .returning('id')
            .execute();
          // One job carries a batch: whichever member runs first claims them all.
          const first = ids.find((id) => reopened.some((r) => r.id === id));
          if (first && endpoints[0]) {
            kicks = [{ deliveryId: first, endpoint: endpoints[0], notBefore: next }];
            await markKicked(db, kicks);
          }
        } else if (s.outcome === 'failed') {
          await sending(ids).set({ ...common, status: 'failed', attempts: bump }).execute();
        } else {
          await sending(ids).set({ ...common, status: 'failed', attempts: bump }).execute();
          await db
            .updateTable('webhook_subscriptions')
            .set({ status: 'disabled', disabled_reason: s.disabledReason, disabled_at: s.at })
            .where('id', '=', subscriptionId)
            .execute();
          const dropped = await db
            .updateTable('webhook_deliveries')
            .set({ status: 'failed', lease_until: null, last_error: `subscription disabled: ${s.disabledReason ?? ''}` })
            .where('subscription_id', '=', subscriptionId)
            .where('status', 'in', OPEN)
            .returning('lane')
            .execute();
          lanes.push(...dropped.map((r) => r.lane));
        }
      }
      await db
        .insertInto('webhook_attempts')
        .values({
          id: randomUUID(),
          subscription_id: subscriptionId,
          idempotency_key: s.work.key,
          event_name: s.work.eventName,
          event_ids: JSON.stringify(s.work.items.map((i) => i.eventId)),
          attempted_at: s.at,
          status_code: s.statusCode,
          latency_ms: Math.round(s.latencyMs),
          error: s.error,
          outcome: s.outcome,
        })
        .execute();
      // Lanes this subscription shares with others at the same address may move on now.
      if (s.outcome !== 'retry') {
        kicks = await pendingHeads(db, s.work.subscription.accountId, endpoints, lanes, s.at);
      }
      return kicks;
    },

    async stalled(now, staleBefore, limit) {
      const { rows } = await sql<{ id: string; endpoint: string }>`
        select d.id, d.endpoint from webhook_deliveries d
        join webhook_subscriptions s on s.id = d.subscription_id and s.status = 'active'
        where d.status in ('pending', 'sending') and d.next_attempt_at <= ${now}
          and ((d.status = 'pending' and (d.kicked_at is null or d.kicked_at <= ${staleBefore}))
            or (d.status = 'sending' and d.lease_until <= ${now}))
          and ${isHead}
        order by d.next_attempt_at limit ${limit}`.execute(db);
      const kicks = rows.map((r) => ({ deliveryId: r.id, endpoint: r.endpoint, notBefore: now }));
      await markKicked(db, kicks);
      return kicks;
    },

    async reopen(subscriptionId, which, now) {
      const subscription = await db.selectFrom('webhook_subscriptions').select('account_id').where('id', '=', subscriptionId).executeTakeFirst();
      if (!subscription) return { eventIds: [], kicks: [] };
      let query = db.selectFrom('webhook_deliveries').select(['id', 'lane', 'endpoint']).where('subscription_id', '=', subscriptionId);
      query =
        'eventId' in which
          ? query.where('event_id', '=', which.eventId).where('status', 'in', ['delivered', 'failed'])
          : query.where('status', '=', 'failed').where('created_at', '>=', which.failedSince);
      const targets = await query.execute();
      if (targets.length === 0) return { eventIds: [], kicks: [] };
      const lanes = targets.map((t) => t.lane);
      await lockLanes(db, subscription.account_id, lanes);
      const reopened = await db
        .updateTable('webhook_deliveries')
        .set({ status: 'pending', attempts: 0, next_attempt_at: now, batch_id: null, lease_until: null, delivered_at: null })
        .where('id', 'in', targets.map((t) => t.id))
        .where('status', 'in', ['delivered', 'failed'])
        .returning(['event_id', 'seq'])
        .execute();
      const eventIds = reopened.sort((a, b) => Number(BigInt(a.seq) - BigInt(b.seq))).map((r) => r.event_id);
      const endpoints = [...new Set(targets.map((t) => t.endpoint))];
      return { eventIds, kicks: await pendingHeads(db, subscription.account_id, endpoints, [...new Set(lanes)], now) };
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
