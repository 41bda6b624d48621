import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import { settledInOneStatement } from '../../core/webhooks/settlement.ts';
import type { ClaimedItem, ClaimedRun, ClaimedWork, ClaimRequest, Settlement, WebhookDeliveryRepository } from '../../core/webhooks/ports.ts';
import type { DatabaseSchema } from '../schema.ts';
import { fixedStatement, type Slot } from './fixed-statement.ts';
import { anyUuid, jsonRows } from './json-rows.ts';
import { followUpBatches, planPosts } from './webhook-claim-plans.ts';
import { followRuns, isDue, statusIs, type TakenRow } from './webhook-delivery-runs.ts';
import { advanceCursors, dueCandidates, READ_ON_EVERY_MS, type LaneCursors } from './webhook-lane-heads.ts';

type Db = Kysely<DatabaseSchema>;

/**
 * No open delivery precedes `d` in its lane: `d` is its lane's first, read from the open-lane index. Written as
 * a subquery with a limit, so it is run per row, one probe each. Written as `not exists`, it became an anti-join,
 * and with statistics taken while nothing was open (autovacuum's analyze after a quiet spell) the planner read
 * the whole open-lane index once per claim and compared every entry with every row taken: 6–9 ms per claim
 * with a backlog of 20,000 deliveries.
 */
const isHead = sql<boolean>`(
  select p.id from webhook_deliveries p
  where p.account_id = d.account_id and p.endpoint = d.endpoint and p.lane = d.lane and p.status in ('pending', 'sending')
  order by p.account_id, p.endpoint, p.lane, p.seq limit 1) = d.id`;

/**
 * Marks rows as being sent under this lease, if they are still due heads nobody else holds. A row's event is found
 * by its position (the delivery's `seq`, the events' primary key), and is the row's own by its id. Rows named in
 * `batches` join that batch in the same update (a batch formed by this claim), so forming it writes each
 * row once; rows named in `keyedByEvent` store their event's id as their key, the same way. Rows another claim
 * is taking right now are skipped, not waited for.
 */
export function takeStatement(
  ids: string[],
  request: Pick<ClaimRequest, 'now' | 'leaseSeconds'>,
  batches: ReadonlyMap<string, string> = new Map(),
  keyedByEvent: readonly string[] = [],
) {
  const { now, leaseSeconds } = request;
  return sql<TakenRow>`
    update webhook_deliveries w set status = 'sending', lease_until = now() + make_interval(secs => ${leaseSeconds}),
      batch_id = coalesce(
        (${[...batches.values()]}::uuid[])[array_position(${[...batches.keys()]}::uuid[], w.id)],
        case when w.id = any(${[...keyedByEvent]}::uuid[]) then w.event_id end,
        w.batch_id)
    from events e
    where e.position = w.seq and e.id = w.event_id and w.id in (
      select d.id from webhook_deliveries d
      where d.id = ${anyUuid(ids)} and ${isDue(now)} and ${isHead}
      for update skip locked)
    returning w.id, w.event_id, w.attempts, w.seq, w.lane, w.event_name, w.batch_id, e.payload, e.created_at`;
}

async function take(db: Db, ids: string[], request: ClaimRequest, batches?: ReadonlyMap<string, string>, keyedByEvent?: readonly string[]): Promise<TakenRow[]> {
  if (ids.length === 0) return [];
  return (await takeStatement(ids, request, batches, keyedByEvent).execute(db)).rows;
}

/** `cursors`: each endpoint's lane this process's claims took last; the next claim goes on from the lane after it. */
export function deliveryClaims(db: Db, cursors: LaneCursors): Pick<WebhookDeliveryRepository, 'claim' | 'settle' | 'nextDue'> {
  return {
    async claim(request) {
      const { now } = request;
      let { rows } = await dueCandidates(request, cursors, true).execute(db);
      if (rows.length > 0 && rows.every((r) => r.cut) && now.getTime() - cursors.readOnAt >= READ_ON_EVERY_MS) {
        // Nothing due within the limit, where some endpoint has more lanes: read on from where it was cut,
        // without the limit (a whole round), rather than leave a due head for a later claim that may not come.
        cursors.readOnAt = now.getTime();
        advanceCursors(cursors, rows);
        ({ rows } = await dueCandidates(request, cursors, false).execute(db));
      }
      const candidates = rows.filter((r) => !r.cut);
      const cuts = rows.filter((r) => r.cut);

      // Heads of a disabled subscription would hold their lanes forever.
      const orphans = candidates.filter((c) => c.subscription_status !== 'active').map((c) => c.id);
      if (orphans.length > 0) {
        await sql`
          update webhook_deliveries d set status = 'failed', lease_until = null, last_error = 'subscription disabled'
          where d.id = ${anyUuid(orphans)} and ${isDue(now)}`.execute(db);
      }
      const plans = planPosts(
        candidates.filter((c) => c.subscription_status === 'active'),
        request,
      );
      // A new batch's id goes with the take; so does the key of a batching account's head that goes alone (its
      // event's id), so that, sent again after a crash, it goes alone again rather than in a batch under
      // another key. Should fewer than two of a new batch's rows be taken (another process holds the rest),
      // the one taken is sent alone, under its event's id, and is keyed so below.
      const formed = new Map(plans.filter((p) => p.batch === 'new' && p.ids.length > 1).map((p) => [p, randomUUID()]));
      const batches = new Map([...formed].flatMap(([p, batch]) => p.ids.map((id) => [id, batch] as const)));
      const lone = plans.filter((p) => p.batch === 'new' && p.ids.length === 1).flatMap((p) => p.ids);
      const taken = new Map((await take(db, plans.flatMap((p) => p.ids), request, batches, lone)).map((r) => [r.id, r]));
      // An endpoint whose scan was cut goes on from where it was cut, once every due head found before the cut
      // was taken; otherwise from the last one taken, as any endpoint.
      const takenAt = (cut: (typeof cuts)[number]) => candidates.filter((c) => c.account_id === cut.account_id && c.endpoint === cut.endpoint && taken.has(c.id)).length;
      advanceCursors(cursors, [...candidates.filter((c) => taken.has(c.id)), ...cuts.filter((cut) => takenAt(cut) === cut.found)]);

      // A batch is retried as it was formed: members the candidates missed come along.
      const retried = plans.filter((p) => p.batch !== 'new' && p.batch !== 'none').map((p) => p.batch);
      if (retried.length > 0) {
        const { rows: members } = await sql<{ id: string; batch_id: string }>`
          select id, batch_id from webhook_deliveries where batch_id = ${anyUuid(retried)} and ${statusIs(null, 'pending', 'sending')}`.execute(db);
        const missing = members.filter((m) => !taken.has(m.id));
        for (const row of await take(db, missing.map((m) => m.id), request)) taken.set(row.id, row);
        for (const p of plans) for (const m of missing) if (m.batch_id === p.batch && !p.ids.includes(m.id)) p.ids.push(m.id);
      }

      // Behind each head come the next of its lane, read and held by the head's lease (see `followRuns`), sent
      // place by place (see `followUpBatches`): one by one behind a single delivery, as batches behind a batch.
      // A new batch of which one row was taken goes alone.
      const heads = (p: (typeof plans)[number]) => p.ids.filter((id) => taken.has(id));
      const leftAlone = (p: (typeof plans)[number]) => formed.has(p) && heads(p).length < 2;
      // A batch's follow-ups are keyed by their rows, so its heads keep where their runs were read up to.
      const following = plans.filter((p) => !leftAlone(p));
      const runs = await followRuns(db, following.flatMap(heads), request, following.filter((p) => heads(p).length > 1).flatMap(heads));

      const claimed: ClaimedRun[] = [];
      const unbatched: string[] = [];
      for (const p of plans) {
        const items = p.ids
          .map((id) => taken.get(id))
          .filter((r): r is TakenRow => r !== undefined)
          .sort((a, b) => Number(BigInt(a.seq) - BigInt(b.seq)));
        if (items.length === 0) continue;
        const batch = formed.get(p);
        // Formed now and taken with at least two rows: keyed by its new id.
        const formedNow = batch !== undefined && items.length > 1;
        let key = items[0]!.event_id;
        if (formedNow) key = batch;
        else if (batch) unbatched.push(items[0]!.id);
        else if (p.batch !== 'new' && p.batch !== 'none') key = p.batch;
        const c = p.first;
        const work = (idempotencyKey: string, rows: TakenRow[], underHeadLease = false): ClaimedWork => ({
          subscription: { id: c.subscription_id, accountId: c.account_id, url: c.url, failingSince: c.failing_since, face: c.face },
          signing: c.secret ? { secret: c.secret, previousSecret: c.previous_secret, previousExpiresAt: c.previous_expires_at } : null,
          endpoint: c.endpoint,
          lanes: [...new Set(rows.map((r) => r.lane))],
          key: idempotencyKey,
          eventName: rows[0]!.event_name,
          items: rows.map(itemOf),
          underHeadLease,
        });
        const followers = leftAlone(p) ? [] : followUpBatches(items.map((i) => runs.get(i.id) ?? []));
        claimed.push([work(key, items), ...followers.map((f) => work(f.key, f.rows, true))]);
      }
      if (unbatched.length > 0) await sql`update webhook_deliveries set batch_id = event_id where id = ${anyUuid(unbatched)}`.execute(db);
      return claimed;
    },

    async settle(settlements) {
      const attempts = settlements.map(attemptRow);
      const delivered = settlements.filter((s) => s.outcome === 'delivered');
      const rows = delivered.flatMap((s) => s.work.items.map((i) => ({ id: i.deliveryId, at: s.at, code: s.statusCode })));
      const ids = rows.map((r) => r.id);
      if (settledInOneStatement(settlements)) {
        // The common case, every attempt delivered to a healthy endpoint: one statement.
        await settledStatement(db, JSON.stringify(attempts), JSON.stringify(rows), ids);
        return;
      }
      if (delivered.length > 0) {
        await markDelivered(rows, ids).execute(db);
        const recovered = [...new Set(delivered.filter((s) => s.work.subscription.failingSince).map((s) => s.work.subscription.id))];
        if (recovered.length > 0) {
          await sql`update webhook_subscriptions set failing_since = null where id = ${anyUuid(recovered)}`.execute(db);
        }
      }
      for (const s of settlements) if (s.outcome !== 'delivered') await settleFailure(db, s);
      await logAttempts(attempts).execute(db);
    },

    async nextDue(now) {
      const { rows } = await sql<{ due: Date | null }>`
        select min(d.next_attempt_at) as due from webhook_deliveries d
        where d.status = 'pending' and d.next_attempt_at > ${now}`.execute(db);
      return rows[0]?.due ?? null;
    },
  };
}

/**
 * Logs attempts; a subscription deleted while the POST was under way leaves nothing to log. The rows of any
 * number of attempts go in one statement text (see `jsonRows`): settlements come in every group size, and a
 * text per size would be parsed and planned again for each. Each attempt's subscription is looked up by its
 * key (a lateral with a limit is not flattened into a join): joined, the planner hashed every subscription for
 * the hundred rows it assumes (2.2 ms per settlement with 20,000 subscriptions, 0.3 ms looked up).
 */
export const logAttempts = (attempts: object[] | Slot) => sql`
  insert into webhook_attempts (id, subscription_id, idempotency_key, event_name, event_ids, attempted_at, status_code, latency_ms, error, outcome)
  select v.* from ${jsonRows('v', attemptColumns, attempts)}
  cross join lateral (select from webhook_subscriptions s where s.id = v.subscription_id limit 1) s`;

/** Marks deliveries delivered. A run's follower is settled from `pending`: its head's lease held it (see `followRuns`). */
const markDelivered = (rows: object[] | Slot, ids: string[] | Slot) => sql`
  update webhook_deliveries d
  set status = 'delivered', delivered_at = v.at, attempts = d.attempts + 1, lease_until = null, run_until = null, last_status_code = v.code, last_error = null
  from ${jsonRows('v', { id: 'uuid', at: 'timestamptz', code: 'int' }, rows)}
  where d.id = ${anyUuid(ids)} and d.id = v.id and ${statusIs('d', 'sending', 'pending')}`;

/** Every attempt delivered to a healthy endpoint, in one statement, built once (see `fixedStatement`). */
const settledStatement = fixedStatement((attempts, rows, ids) => sql`with settled as (${markDelivered(rows, ids)}) ${logAttempts(attempts)}`);

/** An attempt's row; its id ordered by time, like its delivery's (see migration 0021). */
const attemptRow = (s: Settlement) => ({
  id: uuidv7(),
  subscription_id: s.work.subscription.id,
  idempotency_key: s.work.key,
  event_name: s.work.eventName,
  event_ids: s.work.items.map((i) => i.eventId),
  attempted_at: s.at,
  status_code: s.statusCode,
  latency_ms: Math.round(s.latencyMs),
  error: s.error,
  outcome: s.outcome,
});

/** A logged attempt's columns, in the order of the insert's column list (it selects `v.*`). */
const attemptColumns = {
  id: 'uuid',
  subscription_id: 'uuid',
  idempotency_key: 'uuid',
  event_name: 'text',
  event_ids: 'jsonb',
  attempted_at: 'timestamptz',
  status_code: 'int',
  latency_ms: 'int',
  error: 'text',
  outcome: 'text',
};

const itemOf = (r: TakenRow): ClaimedItem => ({ deliveryId: r.id, eventId: r.event_id, payload: r.payload, createdAt: r.created_at, attempts: r.attempts });

/** A failed attempt: retry later, give up on the items, or disable the subscription (and drop what it had queued). */
async function settleFailure(db: Db, s: Settlement): Promise<void> {
  const ids = s.work.items.map((i) => i.deliveryId);
  const subscriptionId = s.work.subscription.id;
  // Nothing behind a failed POST was sent: a head's run is read afresh when it goes again.
  const common = { lease_until: null, run_until: null, last_status_code: s.statusCode, last_error: s.error, attempts: sql<number>`attempts + 1` };
  // A run's follower is still `pending` (held by its head's lease); a row settled otherwise meanwhile is left as it is.
  const sending = () => db.updateTable('webhook_deliveries').where('id', 'in', ids).where(statusIs(null, 'sending', 'pending'));
  await db
    .updateTable('webhook_subscriptions')
    .set({ failing_since: sql`coalesce(failing_since, ${s.at})` })
    .where('id', '=', subscriptionId)
    .execute();
  if (s.outcome === 'retry' && s.nextAttemptAt) {
    // The whole batch waits for the same moment, and is retried as it was formed, under the same key: stored
    // here for a POST that follows its run's head (nothing was written when it was formed), whether a batch
    // or a single delivery, which a batching account would otherwise put in a batch.
    await sending().set({ ...common, batch_id: s.work.key, status: 'pending', next_attempt_at: s.nextAttemptAt }).execute();
    return;
  }
  await sending().set({ ...common, status: 'failed' }).execute();
  if (s.outcome !== 'disabled') return;
  await db
    .updateTable('webhook_subscriptions')
    .set({ status: 'disabled', disabled_reason: s.disabledReason, disabled_at: s.at })
    .where('id', '=', subscriptionId)
    .execute();
  // Rows other attempts hold are left to them: the next claim finds the subscription disabled.
  await sql`
    update webhook_deliveries set status = 'failed', lease_until = null, last_error = ${`subscription disabled: ${s.disabledReason ?? ''}`}
    where id in (select id from webhook_deliveries where subscription_id = ${subscriptionId} and status in ('pending', 'sending')
                 for update skip locked)`.execute(db);
}
