import type {
  AttemptLogQuery,
  DeliveryLogQuery,
  RedeliverBody,
  Redelivery,
  WebhookAttempt,
  WebhookDelivery,
} from '../../../contract/webhooks.ts';
import { AppError } from '../errors.ts';
import type { Clock, Store, WebhookSubscriptionRecord } from '../ports.ts';

export interface DeliveryLogDeps {
  store: Store;
  clock: Clock;
}

const DEFAULT_PAGE = 50;

/** How long the delivery log keeps attempts and finished deliveries. */
export const DELIVERY_LOG_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/** Forgets log entries past the retention, a bounded number per call. Returns how many rows went. */
export async function pruneDeliveryLog({ store, clock }: DeliveryLogDeps, limit = 5_000): Promise<number> {
  return store.webhookDeliveries.prune(new Date(clock.now().getTime() - DELIVERY_LOG_RETENTION_MS), limit);
}

async function ownedSubscription(store: Store, accountId: string, id: string): Promise<WebhookSubscriptionRecord> {
  const [subscription] = await store.webhooks.findOwned(accountId, [id]);
  if (!subscription) throw new AppError('WEBHOOK_NOT_FOUND', 'Webhook subscription not found', { id });
  return subscription;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The subscription's deliveries, newest first. */
export async function listDeliveries(
  { store }: DeliveryLogDeps,
  accountId: string,
  subscriptionId: string,
  query: DeliveryLogQuery,
): Promise<WebhookDelivery[]> {
  await ownedSubscription(store, accountId, subscriptionId);
  const rows = await store.webhookDeliveries.list(subscriptionId, {
    ...(query.status ? { status: query.status } : {}),
    ...(query.before ? { before: new Date(query.before) } : {}),
    limit: query.limit ?? DEFAULT_PAGE,
  });
  return rows.map((r) => ({
    event_id: r.eventId,
    event: r.eventName,
    status: r.status,
    attempts: r.attempts,
    created_at: r.createdAt.toISOString(),
    next_attempt_at: iso(r.nextAttemptAt),
    delivered_at: iso(r.deliveredAt),
    last_status_code: r.lastStatusCode,
    last_error: r.lastError,
  }));
}

/** Every POST to the subscription's URL, newest first, with status code, latency and error. */
export async function listAttempts(
  { store }: DeliveryLogDeps,
  accountId: string,
  subscriptionId: string,
  query: AttemptLogQuery,
): Promise<WebhookAttempt[]> {
  await ownedSubscription(store, accountId, subscriptionId);
  const rows = await store.webhookDeliveries.attempts(subscriptionId, {
    ...(query.before ? { before: new Date(query.before) } : {}),
    limit: query.limit ?? DEFAULT_PAGE,
  });
  return rows.map(({ attemptedAt, ...r }) => ({ ...r, attempted_at: attemptedAt.toISOString() }));
}

/**
 * Queues one delivered or failed event again, or every delivery that failed since a time. They keep their
 * idempotency key and their place in their chat's order, and start the retry schedule afresh.
 */
export async function redeliver(
  { store, clock }: DeliveryLogDeps,
  accountId: string,
  subscriptionId: string,
  body: RedeliverBody,
): Promise<Redelivery> {
  const subscription = await ownedSubscription(store, accountId, subscriptionId);
  if (subscription.status !== 'active') {
    throw new AppError('WEBHOOK_DISABLED', 'Webhook subscription is disabled; change it with PATCH /v2/webhooks to enable it', {
      id: subscriptionId,
      disabled_reason: subscription.disabledReason,
    });
  }
  if ('event_id' in body && !(await store.webhookDeliveries.has(subscriptionId, body.event_id))) {
    throw new AppError('WEBHOOK_DELIVERY_NOT_FOUND', 'No delivery of this event to this subscription', { event_id: body.event_id });
  }
  const which = 'event_id' in body ? { eventId: body.event_id } : { failedSince: new Date(body.failed_since) };
  // The delivery loops find the reopened deliveries at their next look (within a second).
  const eventIds = await store.transaction((tx) => tx.webhookDeliveries.reopen(subscriptionId, which, clock.now()));
  return { event_ids: eventIds };
}
