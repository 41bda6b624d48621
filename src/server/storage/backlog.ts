import { sql, type Kysely } from 'kysely';
import type { DatabaseSchema } from './schema.ts';

/**
 * Queues are counted up to this many rows: an operator needs to see a backlog grow, and counting a very long
 * one on every scrape would make the scrape part of the problem.
 */
export const BACKLOG_COUNT_LIMIT = 100_000;

/** What is waiting in the database's queues, the same for every process that reads it. */
export interface Backlog {
  /** Outbound messages accepted and not yet handed to the messenger (counted up to BACKLOG_COUNT_LIMIT). */
  sendsWaiting: number;
  /**
   * Since when the longest-waiting of them is due (its retry time, if it was put back); null when none waits, or
   * when the count reached its limit (then only some of them were looked at, so the oldest is not known).
   */
  oldestSendDue: Date | null;
  /** Webhook deliveries pending or being sent (counted up to BACKLOG_COUNT_LIMIT). */
  deliveriesOpen: number;
  /** The earliest time a webhook delivery waiting to be sent (pending) is due, or null when none is. */
  oldestDeliveryDue: Date | null;
  /** Active webhook subscriptions whose endpoint has been failing (retries running, not yet disabled). */
  subscriptionsFailing: number;
  /** Subscriptions the gateway switched off after failing too long. */
  subscriptionsDisabled: number;
  /** Channels not deleted, by transport and status. */
  channels: { transport: string; status: string; count: number }[];
}

interface QueueRow {
  sends_waiting: number;
  oldest_send_due: Date | null;
  deliveries_open: number;
  oldest_delivery_due: Date | null;
  subscriptions_failing: number;
  subscriptions_disabled: number;
}

/**
 * Reads the backlog in two statements. Each count walks at most BACKLOG_COUNT_LIMIT rows of a partial index
 * that holds only open work (the send queue's and the deliveries' own), and the earliest pending delivery is the
 * first entry of its due-time index (`webhook_deliveries_retry_due_idx`).
 */
export async function readBacklog(db: Kysely<DatabaseSchema>): Promise<Backlog> {
  const limit = BACKLOG_COUNT_LIMIT;
  const [queues, channels] = await Promise.all([
    sql<QueueRow>`
      select
        sends.waiting as sends_waiting,
        sends.oldest_due as oldest_send_due,
        (select count(*)::int from (select 1 from webhook_deliveries where status in ('pending', 'sending') limit ${limit}) d) as deliveries_open,
        (select min(next_attempt_at) from webhook_deliveries where status = 'pending') as oldest_delivery_due,
        (select count(*)::int from webhook_subscriptions where status = 'active' and failing_since is not null) as subscriptions_failing,
        (select count(*)::int from webhook_subscriptions where status = 'disabled') as subscriptions_disabled
      from (
        -- One read of the send queue gives both: the count, and the oldest only when the count is below its limit.
        select count(*)::int as waiting, case when count(*) < ${limit} then min(coalesce(send_after, created_at)) end as oldest_due
        from (select send_after, created_at from messages where status = 'accepted' and request_id is not null limit ${limit}) q
      ) sends`.execute(db),
    sql<{ transport: string; status: string; count: number }>`
      select transport, status, count(*)::int as count from channels where deleted_at is null group by transport, status order by transport, status`.execute(db),
  ]);
  const row = queues.rows[0]!;
  return {
    sendsWaiting: row.sends_waiting,
    oldestSendDue: row.oldest_send_due && new Date(row.oldest_send_due),
    deliveriesOpen: row.deliveries_open,
    oldestDeliveryDue: row.oldest_delivery_due && new Date(row.oldest_delivery_due),
    subscriptionsFailing: row.subscriptions_failing,
    subscriptionsDisabled: row.subscriptions_disabled,
    channels: channels.rows,
  };
}
