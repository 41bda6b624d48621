import type { WebhookEnvelope } from '../../../contract/events.ts';
import type { EventSink } from '../events/dispatch-event.ts';
import type { Clock, JobQueue, Store } from '../ports.ts';
import { signingSecrets, type WebhookSettingsDeps } from './account-settings.ts';
import type { AttemptOutcome, ClaimedWork, DeliveryKick } from './ports.ts';
import { disableAfterFailingMs, nextAttemptAt, parseRetryAfter } from './retry-policy.ts';
import { signedHeaders } from './signing.ts';

/** What the endpoint answered, or why no answer came. */
export type WebhookResponse = { status: number; retryAfter: string | null; latencyMs: number } | { error: string; latencyMs: number };

/** POSTs one signed body to a subscription's URL: no redirects, a time limit, addresses checked on connect. */
export interface WebhookSender {
  post(request: { url: string; headers: Record<string, string>; body: string; timeoutMs: number }): Promise<WebhookResponse>;
}

export interface DeliveryDeps extends WebhookSettingsDeps {
  sender: WebhookSender;
  /** Jitter of the retry schedule; seeded in tests. */
  random: () => number;
  /** One attempt's time limit (15 s). */
  timeoutMs: number;
  /** At most this many events in one batched POST. */
  batchLimit: number;
  /** Told of every settled attempt, so the part of the domain that announced something can follow its fate. */
  observers?: readonly AttemptObserver[];
}

export type AttemptObserver = (attempt: { eventName: string; payloads: unknown[]; delivered: boolean }) => Promise<void>;

const LEASE_MARGIN_MS = 10_000;

/** Enqueues the job of each delivery that may go now (or at its due time). */
export async function kick(jobs: JobQueue, clock: Clock, kicks: DeliveryKick[]): Promise<void> {
  const now = clock.now().getTime();
  for (const k of kicks) {
    const delaySeconds = Math.max(0, (k.notBefore.getTime() - now) / 1000);
    await jobs.enqueue('webhooks.deliver', { deliveryId: k.deliveryId }, { group: k.endpoint, delaySeconds });
  }
}

/**
 * The webhook side of the event stream: one delivery per matching subscription, queued in order per lane.
 * `queued` hears when deliveries were queued, after they committed (the local delivery loop looks at once).
 */
export function webhookSink({ store, clock, queued }: { store: Store; clock: Clock; queued?: () => void }): EventSink {
  return {
    name: 'webhooks',
    async consume(event) {
      const kicks = await store.transaction(async (tx) => {
        const found = await tx.webhookDeliveries.fanOut(event, clock.now());
        await kick(tx.jobs, clock, found);
        return found;
      });
      if (kicks.length > 0) queued?.();
    },
  };
}

/** The body of one POST; byte-identical on every retry (same items, same key, the events' own time). */
export function envelopeOf(work: ClaimedWork): string {
  const data = work.items.flatMap((i) => (Array.isArray(i.payload) ? (i.payload as unknown[]) : [i.payload]));
  const first = Math.min(...work.items.map((i) => i.createdAt.getTime()));
  const body: WebhookEnvelope = {
    event: work.eventName,
    data,
    meta: { idempotency_key: work.key, timestamp: Math.floor(first / 1000) },
  };
  return JSON.stringify(body);
}

interface Verdict {
  outcome: AttemptOutcome;
  statusCode: number | null;
  error: string | null;
  nextAttemptAt: Date | null;
  disabledReason: string | null;
}

/** What an answer means for the delivery and its subscription. */
export function judge(work: ClaimedWork, response: WebhookResponse, now: Date, random: () => number): Verdict {
  const statusCode = 'status' in response ? response.status : null;
  if (statusCode !== null && statusCode >= 200 && statusCode < 300) {
    return { outcome: 'delivered', statusCode, error: null, nextAttemptAt: null, disabledReason: null };
  }
  let error: string;
  if ('error' in response) error = response.error;
  else if (statusCode !== null && statusCode >= 300 && statusCode < 400) error = `HTTP ${statusCode}: redirects are not followed`;
  else error = `HTTP ${statusCode}`;
  if (statusCode === 410) {
    return { outcome: 'disabled', statusCode, error, nextAttemptAt: null, disabledReason: 'the endpoint answered 410 Gone' };
  }
  const failingSince = work.subscription.failingSince ?? now;
  if (now.getTime() - failingSince.getTime() >= disableAfterFailingMs) {
    const reason = `every attempt failed since ${failingSince.toISOString()} (5 days); last: ${error}`;
    return { outcome: 'disabled', statusCode, error, nextAttemptAt: null, disabledReason: reason };
  }
  const retryAfter = 'status' in response && (statusCode === 429 || statusCode === 503) ? parseRetryAfter(response.retryAfter, now) : null;
  const attemptsMade = Math.max(...work.items.map((i) => i.attempts)) + 1;
  const next = nextAttemptAt(attemptsMade, now, random, retryAfter);
  return next
    ? { outcome: 'retry', statusCode, error, nextAttemptAt: next, disabledReason: null }
    : { outcome: 'failed', statusCode, error, nextAttemptAt: null, disabledReason: null };
}

export type DeliverResult = AttemptOutcome | 'skipped';

/**
 * One attempt of a delivery job: claim the delivery (and its batch) if it heads its lane and is due, POST
 * it signed, then record the outcome and queue what may go next, all in one transaction.
 */
export async function deliverWebhook(deps: DeliveryDeps, deliveryId: string): Promise<DeliverResult> {
  const { store, clock } = deps;
  const claimedAt = clock.now();
  const leaseUntil = new Date(claimedAt.getTime() + deps.timeoutMs + LEASE_MARGIN_MS);
  const claim = await store.transaction((tx) => tx.webhookDeliveries.claim(deliveryId, claimedAt, leaseUntil, deps.batchLimit));
  if ('skipped' in claim) return 'skipped';
  const work = claim.claimed;

  const body = envelopeOf(work);
  const secrets = await signingSecrets(deps, work.subscription.accountId, work.signing);
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'messaging-gateway-webhooks',
    ...signedHeaders(secrets, work.key, Math.floor(clock.now().getTime() / 1000), body),
  };
  const response = await deps.sender.post({ url: work.subscription.url, headers, body, timeoutMs: deps.timeoutMs });

  const at = clock.now();
  const verdict = judge(work, response, at, deps.random);
  await store.transaction(async (tx) => {
    const kicks = await tx.webhookDeliveries.settle({ work, at, latencyMs: response.latencyMs, ...verdict });
    await kick(tx.jobs, clock, kicks);
  });
  const attempt = { eventName: work.eventName, payloads: work.items.map((i) => i.payload), delivered: verdict.outcome === 'delivered' };
  for (const observe of deps.observers ?? []) await observe(attempt);
  return verdict.outcome;
}

/**
 * Backstop for lost wake-ups: lane heads that are due but whose job has not run `graceMs` after it should
 * have, and sends whose lease ran out (a process died mid-attempt). Returns how many were queued again.
 */
export async function sweepDeliveries({ store, clock }: { store: Store; clock: Clock }, graceMs: number, limit = 500): Promise<number> {
  const now = clock.now();
  return store.transaction(async (tx) => {
    const kicks = await tx.webhookDeliveries.stalled(now, new Date(now.getTime() - graceMs), limit);
    await kick(tx.jobs, clock, kicks);
    return kicks.length;
  });
}
