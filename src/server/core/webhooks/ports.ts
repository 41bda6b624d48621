import type { DeliveryStatus, WebhookAttempt } from '../../../contract/webhooks.ts';

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

/** What one claim may take: free attempt slots of this process, and how full each endpoint already is. */
export interface ClaimRequest {
  now: Date;
  /** For how long the claimed attempts are this process's (database time); after that another process may take them over. */
  leaseSeconds: number;
  /** At most this many POSTs. */
  limit: number;
  /** POSTs in flight to one endpoint at once, at most. */
  perEndpoint: number;
  /** POSTs this process has in flight, per endpoint. */
  inFlight: ReadonlyMap<string, number>;
  /** At most this many events in one batched POST. */
  batchLimit: number;
  /**
   * Behind each head, at most this many of its lane's next due deliveries come along, to be sent one after
   * another in the head's slot (0: heads only); behind a batch, as batches of its lanes' next deliveries.
   */
  runLength: number;
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
  /** `face`: which face's body the POST carries (v2's envelope, or v3's body keyed by type). */
  subscription: { id: string; accountId: string; url: string; failingSince: Date | null; face: 'v2' | 'v3' };
  /** The account's sealed secrets, read with the claim; null before the account has any. */
  signing: Pick<WebhookSettingsRecord, 'secret' | 'previousSecret' | 'previousExpiresAt'> | null;
  /** Where the items sit: one endpoint, their lanes. */
  endpoint: string;
  lanes: string[];
  /** `meta.idempotency_key` and `webhook-id`: the event id, or the batch id. */
  key: string;
  eventName: string;
  items: ClaimedItem[];
  /**
   * Follows the run's head (a single delivery, or a batch of lane heads) in its lanes: claiming it wrote
   * nothing, its deliveries are still `pending` and held by the head's lease. So there is nothing to give
   * back when the run stops before it, and the head settles after it.
   */
  underHeadLease: boolean;
}

/**
 * One slot's work: a lane's head, and the lane's next deliveries that came with it (a run), to be POSTed
 * strictly one after another, each only once the one before was answered 2xx. A batch (formed by the claim,
 * or retried as it was formed) is followed the same way by batches of its lanes' next deliveries, at most
 * one per lane each.
 */
export type ClaimedRun = [ClaimedWork, ...ClaimedWork[]];

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
  /** What a v3 address answered to a create request (read only for those). */
  answer?: string;
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
 * open delivery) is sent; settling it makes the next one the head, which the next claim finds. The table
 * is the queue: claims take due heads with row locks and a lease, so processes never send one twice at once.
 */
export interface WebhookDeliveryRepository {
  /**
   * Marks due lane heads as being sent (in batches where the account batches), within the free slots and
   * each endpoint's room, each head or new batch with the runs of its lanes behind it; heads of disabled
   * subscriptions are failed on the way. At each endpoint, successive claims go round its lanes, each from
   * where the last stopped, so every lane gets its turn.
   */
  claim(request: ClaimRequest): Promise<ClaimedRun[]>;
  /** Records the outcomes of finished attempts, subscription health included: in the caller's transaction, unless `settledInOneStatement`. */
  settle(settlements: Settlement[]): Promise<void>;
  /** When the earliest delivery waiting for a retry is due, if any. */
  nextDue(now: Date): Promise<Date | null>;
  /** Queues finished deliveries of a subscription again; returns their event ids, in lane order. */
  reopen(subscriptionId: string, which: { eventId: string } | { failedSince: Date }, now: Date): Promise<string[]>;
  list(subscriptionId: string, filter: { status?: DeliveryStatus } & LogPage): Promise<DeliveryRow[]>;
  attempts(subscriptionId: string, page: LogPage): Promise<AttemptRow[]>;
  /** Removes attempts, and finished deliveries, older than `before`; returns how many rows went. */
  prune(before: Date, limit: number): Promise<number>;
  /** Whether the event was ever routed to the subscription. */
  has(subscriptionId: string, eventId: string): Promise<boolean>;
}
