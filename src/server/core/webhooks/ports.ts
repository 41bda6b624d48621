import type { DeliveryStatus, WebhookAttempt } from '../../../contract/webhooks.ts';
import type { EventRecord } from '../ports.ts';

/** The account's signing secrets (sealed at rest) and delivery settings. */
export interface WebhookSettingsRecord {
  accountId: string;
  /** Sealed `whsec_…` secret. */
  secret: string;
  /** The secret before the last rotation, still signing until `previousExpiresAt`. */
  previousSecret: string | null;
  previousExpiresAt: Date | null;
  batching: boolean;
  updatedAt: Date;
}

export interface WebhookSettingsRepository {
  get(accountId: string): Promise<WebhookSettingsRecord | undefined>;
  /** Stores `fresh` unless the account has settings already; returns what is stored. */
  ensure(fresh: WebhookSettingsRecord): Promise<WebhookSettingsRecord>;
  update(record: WebhookSettingsRecord): Promise<void>;
}

/** A delivery that may be sent now: a job for it is enqueued, to run no earlier than `notBefore`. */
export interface DeliveryKick {
  deliveryId: string;
  /** The endpoint the delivery goes to: deliveries to one endpoint share a concurrency limit. */
  endpoint: string;
  notBefore: Date;
}

export interface ClaimedItem {
  deliveryId: string;
  eventId: string;
  payload: unknown;
  createdAt: Date;
  attempts: number;
}

/** What one POST carries: one delivery, or a batch of deliveries of one event name for one subscription. */
export interface ClaimedWork {
  subscription: { id: string; accountId: string; url: string; failingSince: Date | null };
  /** The account's sealed secrets, read with the claim; null before the account has any. */
  signing: Pick<WebhookSettingsRecord, 'secret' | 'previousSecret' | 'previousExpiresAt'> | null;
  /** Where the items sit: one endpoint, their lanes. */
  endpoint: string;
  lanes: string[];
  /** `meta.idempotency_key` and `webhook-id`: the event id, or the batch id. */
  key: string;
  eventName: string;
  items: ClaimedItem[];
}

export type ClaimResult = { claimed: ClaimedWork } | { skipped: 'gone' | 'busy' | 'waiting' | 'not-due' | 'disabled' };

export type AttemptOutcome = 'delivered' | 'retry' | 'failed' | 'disabled';

export interface Settlement {
  work: ClaimedWork;
  at: Date;
  outcome: AttemptOutcome;
  /** For `retry`: when the next attempt is due. */
  nextAttemptAt: Date | null;
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
  /** For `disabled`: why, as the account will read it. */
  disabledReason: string | null;
}

export interface DeliveryRow {
  eventId: string;
  eventName: string;
  status: DeliveryStatus;
  attempts: number;
  createdAt: Date;
  nextAttemptAt: Date | null;
  deliveredAt: Date | null;
  lastStatusCode: number | null;
  lastError: string | null;
}

export type AttemptRow = Omit<WebhookAttempt, 'attempted_at'> & { attemptedAt: Date };

export interface LogPage {
  before?: Date;
  limit: number;
}

/**
 * Deliveries in lanes: one lane per (account, endpoint URL, ordering key), so that every event of a chat
 * reaches one URL in order whichever subscriptions route it there. Only the head of a lane (its oldest
 * open delivery) is sent; settling it makes the next one the head. Every method that changes which
 * delivery heads a lane runs inside a transaction and serialises on the lane.
 */
export interface WebhookDeliveryRepository {
  /**
   * Creates the deliveries of this event, and of earlier events with its ordering key that have not
   * been dispatched yet, for every active subscription to their names. Idempotent per (event, subscription).
   */
  fanOut(event: EventRecord, now: Date): Promise<DeliveryKick[]>;
  /** Marks the delivery (with its batch) as being sent, if it heads its lane, is due and not leased. */
  claim(deliveryId: string, now: Date, leaseUntil: Date, batchLimit: number): Promise<ClaimResult>;
  /** Records the attempt's outcome, subscription health included; returns the new lane heads to send. */
  settle(settlement: Settlement): Promise<DeliveryKick[]>;
  /** Lane heads that are due but whose job has not run within `staleBefore`, and sends whose lease ran out. */
  stalled(now: Date, staleBefore: Date, limit: number): Promise<DeliveryKick[]>;
  /** Queues finished deliveries of a subscription again; returns the event ids and the heads to send. */
  reopen(
    subscriptionId: string,
    which: { eventId: string } | { failedSince: Date },
    now: Date,
  ): Promise<{ eventIds: string[]; kicks: DeliveryKick[] }>;
  list(subscriptionId: string, filter: { status?: DeliveryStatus } & LogPage): Promise<DeliveryRow[]>;
  attempts(subscriptionId: string, page: LogPage): Promise<AttemptRow[]>;
  /** Removes attempts, and finished deliveries, older than `before`; returns how many rows went. */
  prune(before: Date, limit: number): Promise<number>;
  /** Whether the event was ever routed to the subscription. */
  has(subscriptionId: string, eventId: string): Promise<boolean>;
}
