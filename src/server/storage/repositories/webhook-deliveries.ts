import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { DeliveryKick, WebhookDeliveryRepository } from '../../core/webhooks/ports.ts';
import type { DatabaseSchema } from '../schema.ts';

type Db = Kysely<DatabaseSchema>;

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
                and (e.id = ${event.id} or (e.dispatched_at is null and e.position < (select position from events where id = ${event.id})))`;
      // One statement routes the events, and names the new deliveries that head their lane: nothing open
      // before them, neither stored before nor inserted with them.
      const { rows } = await sql<{ id: string; endpoint: string }>`
        with inserted as (
          insert into webhook_deliveries (id, subscription_id, account_id, event_id, event_name, endpoint, lane, seq, status, attempts, next_attempt_at, kicked_at, created_at)
          select gen_random_uuid(), s.id, e.account_id, e.id, e.name, md5(s.url), ${lane}, e.position, 'pending', 0, ${now}, ${now}, e.created_at
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
        endpoint: string;
        batching: boolean;
        secret: string | null;
        previous_secret: string | null;
        previous_expires_at: Date | null;
        head: boolean;
      }>`
        select d.subscription_id, s.account_id, s.url, s.status as subscription_status, s.failing_since, d.status,
               d.lease_until, d.next_attempt_at, d.batch_id, d.event_id, d.event_name, d.endpoint,
               coalesce(ws.batching, false) as batching, ws.secret, ws.previous_secret, ws.previous_expires_at,
               ${isHead} as head
        from webhook_deliveries d
        join webhook_subscriptions s on s.id = d.subscription_id
        left join webhook_settings ws on ws.account_id = s.account_id
        where d.id = ${deliveryId}
        for update of d skip locked`.execute(db);
      const d = rows[0];
      if (!d || d.status === 'delivered' || d.status === 'failed') return { skipped: 'gone' };
      if (d.subscription_status !== 'active') {
        await db
          .updateTable('webhook_deliveries')
          .set({ status: 'failed', lease_until: null, last_error: 'subscription disabled' })
          .where('id', '=', deliveryId)
          .execute();
        return { skipped: 'disabled' };
      }
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
      const { rows: claimed } = await sql<{ id: string; event_id: string; attempts: number; seq: string; lane: string; payload: unknown; created_at: Date }>`
        update webhook_deliveries d set status = 'sending', lease_until = ${leaseUntil}, batch_id = ${batchId}
        from events e
        where e.id = d.event_id and d.id in (${sql.join(members)})
          and (d.status = 'pending' or (d.status = 'sending' and d.lease_until <= ${now}))
        returning d.id, d.event_id, d.attempts, d.seq, d.lane, e.payload, e.created_at`.execute(db);
      if (!claimed.some((r) => r.id === deliveryId)) return { skipped: 'busy' };
      const items = claimed.sort((a, b) => Number(BigInt(a.seq) - BigInt(b.seq)));
      return {
        claimed: {
          subscription: { id: d.subscription_id, accountId: d.account_id, url: d.url, failingSince: d.failing_since },
          signing: d.secret ? { secret: d.secret, previousSecret: d.previous_secret, previousExpiresAt: d.previous_expires_at } : null,
          endpoint: d.endpoint,
          lanes: [...new Set(items.map((r) => r.lane))],
          key: batchId ?? d.event_id,
          eventName: d.event_name,
          items: items.map((r) => ({ deliveryId: r.id, eventId: r.event_id, payload: r.payload, createdAt: r.created_at, attempts: r.attempts })),
        },
      };
    },

    async settle(s) {
      const ids = s.work.items.map((i) => i.deliveryId);
      const subscriptionId = s.work.subscription.id;
      const lanes = [...s.work.lanes];
      const endpoints = [s.work.endpoint];
      await lockLanes(db, s.work.subscription.accountId, lanes);

      const common = { lease_until: null, last_status_code: s.statusCode, last_error: s.error };
      const bump = sql<number>`attempts + 1`;
      const sending = (ids: string[]) =>
        db.updateTable('webhook_deliveries').where('id', 'in', ids).where('status', '=', 'sending');
      let kicks: DeliveryKick[] = [];
      if (s.outcome === 'delivered') {
        await sending(ids).set({ ...common, status: 'delivered', delivered_at: s.at, attempts: bump }).execute();
        if (s.work.subscription.failingSince) {
          await db.updateTable('webhook_subscriptions').set({ failing_since: null }).where('id', '=', subscriptionId).execute();
        }
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
          if (first) {
            kicks = [{ deliveryId: first, endpoint: s.work.endpoint, notBefore: next }];
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
          // Rows other attempts hold are left to them: their next claim finds the subscription disabled.
          const { rows: dropped } = await sql<{ lane: string }>`
            update webhook_deliveries set status = 'failed', lease_until = null, last_error = ${`subscription disabled: ${s.disabledReason ?? ''}`}
            where id in (select id from webhook_deliveries where subscription_id = ${subscriptionId} and status in ('pending', 'sending')
                         for update skip locked)
            returning lane`.execute(db);
          lanes.push(...dropped.map((r) => r.lane));
        }
      }
      // A subscription deleted while the POST was under way leaves nothing to log.
      await sql`
        insert into webhook_attempts (id, subscription_id, idempotency_key, event_name, event_ids, attempted_at, status_code, latency_ms, error, outcome)
        select ${randomUUID()}, s.id, ${s.work.key}, ${s.work.eventName}, ${JSON.stringify(s.work.items.map((i) => i.eventId))}::jsonb,
               ${s.at}, ${s.statusCode}, ${Math.round(s.latencyMs)}, ${s.error}, ${s.outcome}
        from webhook_subscriptions s where s.id = ${subscriptionId}`.execute(db);
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
        order by d.next_attempt_at limit ${limit}
        for update of d skip locked`.execute(db);
      // Rows a claim or a settlement holds are theirs to move on; the sweep never waits for them.
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
