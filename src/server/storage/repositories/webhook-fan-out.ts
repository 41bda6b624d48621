import { sql, type RawBuilder } from 'kysely';

/**
 * The tail of every statement that records events, given a CTE `recorded` returning the inserted events'
 * rows: one pending webhook delivery per active subscription to each event's name, in the event's lane
 * (its ordering key, or a lane of its own) at the event's stream position, due at once. Returns one row of
 * `RecordedCounts`, for the store to wake the loops once the statement's transaction committed.
 *
 * Queuing the deliveries with the event, rather than in a later dispatch, makes them exactly as durable as
 * the event, and leaves nothing between an event's commit and its first attempt but a claim. A lane's
 * order is its events' positions, which the events took in the order they were recorded. A delivery's id is ordered
 * by time (see migration 0021), as is its attempts' (`attemptRow`).
 */
export function queueDeliveries(): RawBuilder<unknown> {
  return sql`,
    queued as (
      insert into webhook_deliveries (id, subscription_id, account_id, event_id, event_name, endpoint, lane, seq, status, attempts, next_attempt_at, created_at)
      select time_ordered_uuid(), s.id, e.account_id, e.id, e.name, md5(s.url), coalesce(e.ordering_key, 'event:' || e.id::text), e.position,
             'pending', 0, e.created_at, e.created_at
      from recorded e
      join webhook_subscriptions s on s.account_id = e.account_id and s.event = e.name and s.status = 'active'
      returning 1)
    select (select count(*) from recorded)::int as recorded, (select count(*) from queued)::int as queued`;
}

/** What a statement ending in `queueDeliveries` recorded and queued. */
export type RecordedCounts = { recorded: number; queued: number };

/** Hears, before the commit, that a statement recorded events (and whether it queued webhook deliveries). */
export type EventsRecorded = (what: { deliveries: boolean }) => void;

export function tellRecorded(rows: RecordedCounts[], recorded: EventsRecorded | undefined): void {
  const counts = rows[0];
  if (counts && counts.recorded > 0) recorded?.({ deliveries: counts.queued > 0 });
}
