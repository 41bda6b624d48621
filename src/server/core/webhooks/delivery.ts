import { settledInOneStatement } from './settlement.ts';
import type { WebhookEnvelope } from '../../../contract/events.ts';
import type { Clock, Store } from '../ports.ts';
import { signingSecrets, type WebhookSettingsDeps } from './account-settings.ts';
import type { AttemptOutcome, ClaimedRun, ClaimedWork, Settlement } from './ports.ts';
import { disableAfterFailingMs, nextAttemptAt, parseRetryAfter } from './retry-policy.ts';
import { signedHeaders } from './signing.ts';
import { nothingToSay, postV3 } from './v3-delivery.ts';

/** What the endpoint answered (its body only when asked for), or why no answer came. */
export type WebhookResponse = { status: number; retryAfter: string | null; latencyMs: number; answer?: string } | { error: string; latencyMs: number };

/**
 * POSTs one signed body to a subscription's URL: no redirects, a time limit, addresses checked on connect.
 * `readAnswer`: the answer's body is read (up to the sender's cap) and returned, for a v3 create request.
 */
export interface WebhookSender {
  post(request: { url: string; headers: Record<string, string>; body: string; timeoutMs: number; readAnswer?: boolean }): Promise<WebhookResponse>;
}

export interface DeliveryDeps extends WebhookSettingsDeps {
  sender: WebhookSender;
  /** Jitter of the retry schedule; seeded in tests. */
  random: () => number;
  /** One attempt's time limit (15 s). */
  timeoutMs: number;
  /** At most this many events in one batched POST. */
  batchLimit: number;
  /** At most this many of a lane's next deliveries come along with its head, sent one after another (a run). */
  runLength: number;
  /** Told of every settled attempt, so the part of the domain that announced something can follow its fate. */
  observers?: readonly AttemptObserver[];
}

/**
 * `face`: the face of the subscription the attempt was for; `answer`: what a v3 address answered to a create
 * request (the created entity), when it was read.
 */
export type AttemptObserver = (attempt: {
  eventName: string;
  payloads: unknown[];
  delivered: boolean;
  outcome: AttemptOutcome;
  face?: 'v2' | 'v3';
  accountId?: string;
  answer?: string;
}) => Promise<void>;

const LEASE_MARGIN_MS = 10_000;

/**
 * A run POSTs its next delivery only within this long of its claim, so every POST it starts ends (answered
 * or timed out) before its lease does: a lease covers one time limit, this and the margin.
 */
export const RUN_WINDOW_MS = 5_000;

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

/** Room this process has for attempts: free slots over all endpoints, and what each endpoint has in flight. */
export interface DeliverySlots {
  limit: number;
  perEndpoint: number;
  inFlight: ReadonlyMap<string, number>;
}

/**
 * Takes due lane heads (with their batches, or the runs of their lanes) for this process to send. Each
 * claimed delivery is leased for a time limit, the run window and a margin; a process that dies mid-attempt
 * loses it at the end of the lease, and whichever process claims next sends it again.
 */
export async function claimDeliveries(deps: DeliveryDeps, slots: DeliverySlots): Promise<ClaimedRun[]> {
  const now = deps.clock.now();
  const leaseSeconds = (deps.timeoutMs + RUN_WINDOW_MS + LEASE_MARGIN_MS) / 1000;
  // Every row is taken by an update that checks again that it is a due head nobody holds, so the lookup and
  // the take need no transaction. On the embedded database one still keeps the connection from the lookup to
  // the take, so the claim is not queued behind other work halfway (measured: about a fifth more deliveries/s).
  return deps.store.together((s) => s.webhookDeliveries.claim({ now, leaseSeconds, batchLimit: deps.batchLimit, runLength: deps.runLength, ...slots }));
}

/** One POST of claimed work in its subscription's face, and what its answer means. Touches no state. */
export async function attemptDelivery(deps: DeliveryDeps, work: ClaimedWork): Promise<Settlement> {
  const { clock } = deps;
  if (work.subscription.face === 'v3') {
    const posted = await postV3(deps, work);
    const at = clock.now();
    if (!posted) return nothingToSay(work, at);
    const answer = 'answer' in posted.response ? posted.response.answer : undefined;
    return { work, at, latencyMs: posted.response.latencyMs, ...judge(work, posted.response, at, deps.random), ...(answer !== undefined ? { answer } : {}) };
  }
  const body = envelopeOf(work);
  const secrets = await signingSecrets(deps, work.subscription.accountId, work.signing);
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'messaging-gateway-webhooks',
    ...signedHeaders(secrets, work.key, Math.floor(clock.now().getTime() / 1000), body),
  };
  const response = await deps.sender.post({ url: work.subscription.url, headers, body, timeoutMs: deps.timeoutMs });
  const at = clock.now();
  return { work, at, latencyMs: response.latencyMs, ...judge(work, response, at, deps.random) };
}

/**
 * Records finished attempts in one transaction (many attempts share one commit). Settling a head makes
 * the next delivery of its lane the head, for the next claim.
 */
export async function settleDeliveries(deps: Pick<DeliveryDeps, 'store'>, settlements: Settlement[]): Promise<void> {
  if (settlements.length === 0) return;
  if (settledInOneStatement(settlements)) await deps.store.webhookDeliveries.settle(settlements);
  else await deps.store.transaction((tx) => tx.webhookDeliveries.settle(settlements));
}

/** Tells the observers what became of a settled attempt (once its outcome is committed). */
export async function announceAttempt(deps: Pick<DeliveryDeps, 'observers'>, settlement: Settlement): Promise<void> {
  const { work } = settlement;
  const attempt = {
    eventName: work.eventName,
    payloads: work.items.map((i) => i.payload),
    delivered: settlement.outcome === 'delivered',
    outcome: settlement.outcome,
    face: work.subscription.face,
    accountId: work.subscription.accountId,
    ...(settlement.answer !== undefined ? { answer: settlement.answer } : {}),
  };
  for (const observe of deps.observers ?? []) await observe(attempt);
}

/** When the earliest delivery waiting for a retry is due, so an idle loop can sleep until then. */
export async function nextDeliveryDue({ store, clock }: { store: Store; clock: Clock }): Promise<Date | null> {
  return store.webhookDeliveries.nextDue(clock.now());
}
