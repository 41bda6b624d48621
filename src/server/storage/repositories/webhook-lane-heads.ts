import { sql, type RawBuilder } from 'kysely';
import type { ClaimRequest } from '../../core/webhooks/ports.ts';
import { jsonRows } from './json-rows.ts';
import type { Candidate } from './webhook-claim-plans.ts';
import { isDue } from './webhook-delivery-runs.ts';

/** Where an endpoint's lane scan goes on from: the lane of its last head taken (or where its scan was cut). */
interface LaneCursor {
  account_id: string;
  endpoint: string;
  lane: string;
}

/**
 * A process's lane cursors, keyed by `cursorKey`, and when its claims last read on past the limit of heads that
 * cannot go (domain time, ms): that costs a whole round of the cut endpoints' lanes, so it is done at most once a
 * second (`READ_ON_EVERY_MS`). Work arriving wakes the claims, and they look again; an idle process looks every
 * second, so a retry that comes due is found within about a second wherever its lane is.
 */
export class LaneCursors extends Map<string, LaneCursor> {
  readOnAt = Number.NEGATIVE_INFINITY;
}

/** How often at most a claim reads a whole round past the limit (see `LaneCursors`). */
export const READ_ON_EVERY_MS = 1_000;

const cursorKey = (accountId: string, endpoint: string) => `${accountId} ${endpoint}`;

/**
 * Heads that cannot go now (waiting for a retry, or being sent) a claim reads at most in one endpoint before
 * it moves on to the next endpoint; the endpoint's cursor then stays at the last lane read. An endpoint that
 * fails, with thousands of lanes waiting for their retries, would otherwise cost every claim (every other
 * endpoint's too) one probe per lane: with 10,000 such lanes, deliveries to a healthy endpoint fell from about
 * 13,000/s to 2,700/s. While other endpoints keep the claims coming, they go round the cut endpoint's lanes
 * 128 at a time; a claim that finds nothing within the limit reads on without it, once a second at most
 * (see `LaneCursors`), so an idle process still finds a retry that came due anywhere.
 */
export const NOT_DUE_READ_PER_ENDPOINT = 128;

/** Below every account's id: the scan starts before the first endpoint. */
const BEFORE_ALL_ACCOUNTS = '00000000-0000-0000-0000-000000000000';

/**
 * A recursive CTE `heads`: lane heads of open deliveries, read by a skip scan of the open-lane index (one probe
 * per lane, however long the queues behind the heads are), endpoint after endpoint. In each endpoint the scan
 * goes round its lanes from its cursor (past the last lane, on from the first up to the cursor) and stops once
 * it has found as many due heads as the endpoint can take now (its free room, times the batch size where its
 * account batches), or once it has read `NOT_DUE_READ_PER_ENDPOINT` heads that cannot go now (that row is where
 * the endpoint's scan was cut), so a claim reads about what it can take rather than every lane. Successive claims
 * going on from their cursors give every lane its turn. The rows that only mark the entry into an endpoint have no id;
 * `step` numbers the rows in the order the scan read them. Each head carries what a claim needs of its row, read
 * by the same probe, so nothing joins the deliveries table again: with the few heads a claim takes, a join back
 * by id was planned as a hash join over a full scan of the table (seen: 2.3 ms of a 3 ms claim at 12,000 rows).
 */
function laneHeads(
  request: Pick<ClaimRequest, 'now' | 'perEndpoint' | 'batchLimit' | 'inFlight'>,
  cursors: ReadonlyMap<string, LaneCursor>,
  limited: boolean,
): RawBuilder<unknown> {
  const { now, perEndpoint, batchLimit } = request;
  // Both as one parameter each, so the statement's text stays the same however many endpoints there are.
  const inFlight = [...request.inFlight].filter(([, n]) => n > 0).map(([endpoint, n]) => ({ endpoint, n }));
  const cursorRows = [...cursors.values()];
  // `read` counts the endpoint's heads read, `found` the due ones among them: the rest could not go.
  const readOn = limited ? sql`h.read - h.found < ${sql.lit(NOT_DUE_READ_PER_ENDPOINT)}` : sql`true`;
  const lane = (wrapped: RawBuilder<boolean>) => sql`
    w.account_id, w.endpoint, w.lane, w.id, w.status, w.next_attempt_at, w.lease_until, w.subscription_id, w.event_name, w.batch_id, h.quota,
    h.found + case when ${isDue(now, 'w')} then 1 else 0 end, h.read + 1,
    h.start_lane, ${wrapped}, h.step + 1`;
  return sql`
    scan_cursors as (select * from ${jsonRows('c', { account_id: 'uuid', endpoint: 'text', lane: 'text' }, cursorRows)}),
    scan_in_flight as (select * from ${jsonRows('b', { endpoint: 'text', n: 'int' }, inFlight)}),
    heads as (
      select ${BEFORE_ALL_ACCOUNTS}::uuid as account_id, ''::text as endpoint, ''::text as lane, null::uuid as id, null::text as status,
             null::timestamptz as next_attempt_at, null::timestamptz as lease_until,
             null::uuid as subscription_id, null::text as event_name, null::uuid as batch_id, 0 as quota, 0 as found, 0 as read, null::text as start_lane, false as wrapped, 0 as step
      union all
      select n.* from heads h cross join lateral (
        -- The endpoint's next lane (up to its cursor once wrapped), while it can take more.
        (select ${lane(sql`h.wrapped`)} from webhook_deliveries w
         where h.found < h.quota and ${readOn} and w.status in ('pending', 'sending')
           and w.account_id = h.account_id and w.endpoint = h.endpoint and w.lane > h.lane and (not h.wrapped or w.lane <= h.start_lane)
         order by w.account_id, w.endpoint, w.lane, w.seq limit 1)
        union all
        -- Past its last lane: its first, if the scan began at a cursor.
        (select ${lane(sql`true`)} from webhook_deliveries w
         where h.found < h.quota and ${readOn} and not h.wrapped and h.start_lane is not null
           and w.status in ('pending', 'sending') and w.account_id = h.account_id and w.endpoint = h.endpoint and w.lane <= h.start_lane
         order by w.account_id, w.endpoint, w.lane, w.seq limit 1)
        union all
        -- The next endpoint, entered at its cursor, with what it can take.
        (select e.account_id, e.endpoint, coalesce(c.lane, ''), null::uuid, null::text, null::timestamptz, null::timestamptz,
                null::uuid, null::text, null::uuid,
                greatest(0, ${perEndpoint}::int - coalesce((select b.n from scan_in_flight b where b.endpoint = e.endpoint), 0))
                  * case when coalesce((select ws.batching from webhook_settings ws where ws.account_id = e.account_id), false) then ${batchLimit}::int else 1 end,
                0, 0, c.lane, false, h.step + 1
         from (select w.account_id, w.endpoint from webhook_deliveries w
               where w.status in ('pending', 'sending') and (w.account_id, w.endpoint) > (h.account_id, h.endpoint)
               order by w.account_id, w.endpoint, w.lane, w.seq limit 1) e
         left join scan_cursors c on c.account_id = e.account_id and c.endpoint = e.endpoint)
        -- The branches of union all run in order: the first that finds a row is the step.
        limit 1) n)`;
}

/** Where an endpoint's scan was cut (see `NOT_DUE_READ_PER_ENDPOINT`): the last lane it read there. */
export interface ScanCut {
  account_id: string;
  endpoint: string;
  lane: string;
  step: number;
  /** Due heads the scan found in the endpoint before the cut. */
  found: number;
}

/**
 * A claim's candidates: due heads, as many per endpoint as its free room can carry (times the batch size where
 * the account batches: the scan stops there; `planPosts` holds an endpoint shared by accounts to its room),
 * spread over endpoints: each endpoint's first found, then the next of each. A v3 subscription's deliveries never
 * batch: some of its bodies hold one object (a template's status, a contact to create). Subscriptions and settings are
 * looked up per head (a lateral with a limit is not flattened into a join): a claim has a few heads, and a hash
 * join would read every subscription and every account's settings. After them come the endpoints whose scan
 * was cut, marked `cut`, as `ScanCut`s (only when `limited`: at most `NOT_DUE_READ_PER_ENDPOINT` heads that
 * cannot go are read per endpoint).
 */
export function dueCandidates(
  request: Pick<ClaimRequest, 'now' | 'perEndpoint' | 'batchLimit' | 'inFlight' | 'limit'>,
  cursors: ReadonlyMap<string, LaneCursor>,
  limited: boolean,
): RawBuilder<(Candidate & { cut: false }) | (ScanCut & { cut: true })> {
  return sql<(Candidate & { cut: false }) | (ScanCut & { cut: true })>`
    with recursive ${laneHeads(request, cursors, limited)},
    due as materialized (select * from heads d where d.id is not null and ${isDue(request.now)}),
    candidates as (
      select h.id, h.lane, h.step, h.subscription_id, s.status as subscription_status, s.account_id, s.url, s.failing_since, s.face,
             h.endpoint, h.event_name, h.batch_id, coalesce(ws.batching, false) and s.face = 'v2' as batching,
             ws.secret, ws.previous_secret, ws.previous_expires_at, false as cut, null::int as found
      from due h
      cross join lateral (select * from webhook_subscriptions s where s.id = h.subscription_id limit 1) s
      left join lateral (select * from webhook_settings ws where ws.account_id = h.account_id limit 1) ws on true
      order by row_number() over (partition by h.endpoint order by h.step), h.step
      limit ${request.limit * Math.max(1, request.batchLimit)})
    select * from candidates
    union all
    select null, h.lane, h.step, null, null, h.account_id, null, null, null, h.endpoint, null, null, null, null, null, null, true, h.found
    from heads h where ${limited ? sql`h.read - h.found = ${sql.lit(NOT_DUE_READ_PER_ENDPOINT)}` : sql`false`}`;
}

/**
 * Moves each endpoint's cursor to the lane of the last head taken from it, in the order its scan read them
 * (the lanes' own order is the database's collation, which the scan alone knows).
 */
export function advanceCursors(cursors: LaneCursors, taken: readonly { account_id: string; endpoint: string; lane: string; step: number }[]): void {
  const last = new Map<string, (typeof taken)[number]>();
  for (const t of taken) {
    const key = cursorKey(t.account_id, t.endpoint);
    const seen = last.get(key);
    if (!seen || t.step > seen.step) last.set(key, t);
  }
  for (const [key, { account_id, endpoint, lane }] of last) cursors.set(key, { account_id, endpoint, lane });
}
