import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { ClaimRequest } from '../../core/webhooks/ports.ts';
import type { DatabaseSchema } from '../schema.ts';
import { fixedStatement, type Slot } from './fixed-statement.ts';

type Db = Kysely<DatabaseSchema>;

/** A delivery taken by a claim, with what its POST needs of its event. */
export interface TakenRow {
  id: string;
  event_id: string;
  attempts: number;
  seq: string;
  lane: string;
  event_name: string;
  batch_id: string | null;
  payload: unknown;
  created_at: Date;
}

/**
 * Due for an attempt (the delivery row named `alias`): pending and due (domain time), or being sent by a
 * process whose lease ran out. Leases are between processes, so they run on the database's clock, whatever
 * the domain clock does.
 *
 * Every statement that asks this has found its rows already (by id, or through the open-lane index), so the
 * test is written as one `case`, which no index can serve. Written as plain conditions, it lets a generic
 * plan AND the key with a partial index of due rows (the retry index, `pending` by `next_attempt_at`), and
 * that bitmap scan reads the entries of every row that was due since the last vacuum, delivered ones included
 * (bitmap scans never mark entries dead): over a hundred thousand entries per claim after a busy minute
 * (measured when that index covered every open row), where the key alone finds the handful asked for.
 */
export function isDue(now: Date | Slot, alias = 'd'): RawBuilder<boolean> {
  const column = (name: string) => sql.ref(`${alias}.${name}`);
  return sql<boolean>`case ${column('status')}
    when 'pending' then ${column('next_attempt_at')} <= ${now}
    when 'sending' then ${column('next_attempt_at')} <= ${now} and ${column('lease_until')} <= now()
    else false end`;
}

/**
 * The delivery row named `alias` (or the statement's only table) has one of `statuses`, for statements that
 * found their rows already, by id or batch. Written plainly, the test implies the predicate of the partial
 * indexes of open deliveries, and a generic plan may AND the key with a full scan of one of them: the
 * entries of every delivery opened since the last vacuum (seen: 23,000 entries, 5 ms, to settle 35 rows).
 * A `case` implies nothing, as in `isDue`.
 */
export function statusIs(alias: string | null, ...statuses: ('pending' | 'sending')[]): RawBuilder<boolean> {
  const column = sql.ref(alias ? `${alias}.status` : 'status');
  return sql<boolean>`case when ${column} in (${sql.join(statuses.map((s) => sql.lit(s)))}) then true else false end`;
}

/**
 * Each head's lane's next open deliveries in order (`followers`), at most `runLength` of them, with what a
 * claim returns of each (read once, by the lateral scan of the open-lane index) and whether every one up to
 * it qualifies for the run (`contiguous`): due, unbatched and of the head's subscription.
 * A run stops at the first delivery that does not qualify (a retry not yet due, another subscription's, one
 * another process holds), since the lane's order allows no gap.
 */
function followersOf(headIds: Slot, now: Slot, runLength: Slot) {
  return sql`
      select f.id, f.event_id, f.attempts, f.seq, f.lane, f.event_name, f.batch_id, h.id as head,
             row_number() over (partition by h.id order by f.seq) as place,
             bool_and(${isDue(now, 'f')} and f.batch_id is null and f.subscription_id = hd.subscription_id)
               over (partition by h.id order by f.seq) as contiguous
      from unnest(${headIds}::uuid[]) as h(id)
      join webhook_deliveries hd on hd.id = h.id
      cross join lateral (
        select w.id, w.event_id, w.attempts, w.seq, w.lane, w.event_name, w.status, w.next_attempt_at, w.lease_until, w.batch_id,
               w.subscription_id
        from webhook_deliveries w
        where w.account_id = hd.account_id and w.endpoint = hd.endpoint and w.lane = hd.lane and w.seq > hd.seq
          and w.status in ('pending', 'sending') and (hd.run_until is null or w.seq <= hd.run_until)
        order by w.seq limit ${runLength}) f`;
}

/** Rows of runs as read, grouped by head, each run in its lane's order. */
function byHead(rows: (TakenRow & { head: string; place: string })[]): Map<string, (TakenRow & { place: number })[]> {
  const placed = new Map<string, (TakenRow & { place: number })[]>();
  for (const { head, place, ...row } of rows) {
    const taken = placed.get(head) ?? [];
    taken.push({ ...row, place: Number(place) });
    placed.set(head, taken);
  }
  for (const taken of placed.values()) taken.sort((a, b) => a.place - b.place);
  return placed;
}

/**
 * Built once (see `fixedStatement`): it runs with every claim. Events are found by position (a delivery's `seq`). The heads of a batch (`bounded`) keep where their
 * runs were read up to, the first time they are read (a head with no run keeps its own place): read again after
 * a crash, the runs stop there, and events that came in meanwhile do not join follow-ups already sent.
 */
const followStatement = fixedStatement(
  (headIds, now, runLength, bounded) => sql<TakenRow & { head: string; place: string }>`
    with followers as (${followersOf(headIds, now, runLength)}),
    bounds as (
      update webhook_deliveries h set run_until = coalesce((select max(f.seq) from followers f where f.head = h.id and f.contiguous), h.seq)
      where h.id = any(${bounded}::uuid[]) and h.run_until is null)
    select c.id, c.event_id, c.attempts, c.seq, c.lane, c.event_name, c.batch_id, e.payload, e.created_at, c.head, c.place
    from followers c join events e on e.position = c.seq and e.id = c.event_id
    where c.contiguous`,
);

/**
 * The runs behind heads this claim has just taken (single ones, or the members of a batch), read and not
 * written: a follower stays `pending`, held by its head's lease. None of a lane's deliveries is a head while
 * its head is being sent, so no claim (of this process or another) can take them, and the run costs no write
 * until its outcomes are settled (for a batched run, half the writes of taking it). The head must therefore
 * settle last: its settlement opens the lane. Should the process die, the head's lease runs out and the next
 * claim takes it again, with the followers not yet settled as its run. `bounded`: heads of a batch, whose runs
 * are kept to what was read the first time (their follow-ups are keyed by their rows).
 */
export async function followRuns(db: Db, headIds: string[], request: ClaimRequest, bounded: readonly string[] = []): Promise<Map<string, TakenRow[]>> {
  const runs = new Map<string, TakenRow[]>();
  if (headIds.length === 0 || request.runLength <= 0) return runs;
  const { rows } = await followStatement(db, headIds, request.now, request.runLength, [...bounded]);
  for (const [head, run] of byHead(rows)) runs.set(head, run.map(({ place: _place, ...row }) => row));
  return runs;
}
