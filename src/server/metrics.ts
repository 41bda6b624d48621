import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { TransientSendError, type MessagingDriver, type MessengerAppHook, type MessengerHook, type ReactionRef, type TypingRef } from './core/messages/ports.ts';
import type { Clock } from './core/ports.ts';
import type { WaSessionStats } from './transports/whatsapp/session-stats.ts';
import type { RetentionPass } from './core/events/retention.ts';
import type { AttemptObserver, WebhookSender } from './core/webhooks/delivery.ts';
import { BACKLOG_COUNT_LIMIT, type Backlog } from './storage/backlog.ts';
import type { PacingFigures } from './core/pacing/ports.ts';
import { pacingGauges } from './metrics-pacing.ts';

export interface GatewayMetricsDeps {
  clock: Clock;
  /** The database's queues now (one read per scrape, shared by every backlog gauge). */
  readBacklog(): Promise<Backlog>;
  /** Frames connected to this process. */
  connectedFrames(): number;
  /** This process's personal WhatsApp sessions (null without the driver). */
  whatsappSessions?(): WaSessionStats | null;
  /** Personal channels' pacing: the day's counts, held sends and gaps (one read per scrape). */
  readPacing?(): Promise<PacingFigures[]>;
}

/** The gateway's instruments: wrappers of its ports that count what passes through them, and the gauges read at scrape time. */
export interface GatewayMetrics {
  registry: Registry;
  messaging(driver: MessagingDriver): MessagingDriver;
  hooks(updates: Record<string, MessengerHook>): Record<string, MessengerHook>;
  /** The same for the platforms that post every account's updates to one address of the app's (counted by the transport's name). */
  appHooks(apps: Record<string, MessengerAppHook>): Record<string, MessengerAppHook>;
  webhookSender(sender: WebhookSender): WebhookSender;
  webhookAttempts: AttemptObserver;
  /** A retention pass ended, having deleted these rows. */
  retained(pass: RetentionPass): void;
  /** A press of a button went unanswered on the platform (the press is recorded all the same), and why. */
  answerFailed(transport: string, reason: string): void;
  /** A live channel's hook registration was checked against what the gateway registers now, and what became of it. */
  hookRefreshed(transport: string, result: string): void;
}

const seconds = (ms: number) => ms / 1000;
const LATENCY_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** How a webhook POST ended, in classes: a receiver's every status code would be a series each. */
const answerClass = (answer: Awaited<ReturnType<WebhookSender['post']>>) => ('status' in answer ? `${Math.floor(answer.status / 100)}xx` : 'error');

/**
 * Metrics in Prometheus' model, on a registry of this gateway's own (tests run several gateways in one process).
 * Counters and latencies are this process's; the backlog gauges read the shared database, so every process
 * reports the same values (aggregate them with max, not sum).
 */
export function gatewayMetrics(deps: GatewayMetricsDeps): GatewayMetrics {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });

  // Counted where the messenger answers, once per try: what a message ends as is its message.status_update.
  const sends = new Counter({
    name: 'gateway_messenger_sends_total',
    help:
      'Tries to hand an outbound message to a messenger, by transport and answer: sent; refused (the reason is counted apart); ' +
      'network_error (tried again later, or on the last try the message fails as network_error); error (an unexpected failure, tried again likewise).',
    labelNames: ['transport', 'outcome'] as const,
    registers,
  });
  const failures = new Counter({
    name: 'gateway_messenger_refusals_total',
    help: 'Sends a messenger refused, by transport and the failure reason the CRM is told.',
    labelNames: ['transport', 'reason'] as const,
    registers,
  });
  const calls = new Histogram({
    name: 'gateway_messenger_call_duration_seconds',
    help: 'Calls to a messenger (send, edit, remove, react), by transport, operation and whether they answered.',
    labelNames: ['transport', 'operation', 'result'] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const updates = new Counter({
    name: 'gateway_messenger_updates_total',
    help: 'Updates messengers posted to /hooks, by transport and what became of them: accepted, ignored, unauthorized, unavailable or error.',
    labelNames: ['transport', 'outcome'] as const,
    registers,
  });
  const answerFailures = new Counter({
    name: 'gateway_messenger_answer_failures_total',
    help: 'Presses of buttons left unanswered on the messenger (the press is recorded all the same), by transport and reason: busy, dropped (paced out), timeout, refused, revoked, unreachable or error.',
    labelNames: ['transport', 'reason'] as const,
    registers,
  });
  const hookRefreshes = new Counter({
    name: 'gateway_messenger_hook_refreshes_total',
    help: 'Live bot channels registered under other settings and registered again, by transport and result: refreshed, elsewhere (the bot posts elsewhere now: left), revoked, superseded (the channel changed meanwhile), withdraw_failed (the channel changed and its former bot could not be told to stop posting to it) or failed (tried again later).',
    labelNames: ['transport', 'result'] as const,
    registers,
  });
  const attempts = new Counter({
    name: 'gateway_webhook_attempts_total',
    help: 'Webhook POSTs settled, by event and outcome: delivered, retry, failed (given up) or disabled (the subscription was switched off).',
    labelNames: ['event', 'outcome'] as const,
    registers,
  });
  const delivered = new Counter({
    name: 'gateway_webhook_events_delivered_total',
    help: 'Events delivered to webhook endpoints (a batched POST carries several), by event.',
    labelNames: ['event'] as const,
    registers,
  });
  const posts = new Histogram({
    name: 'gateway_webhook_post_duration_seconds',
    help: 'Webhook POSTs by how the endpoint answered (status class, or error when no answer came) and how long it took.',
    labelNames: ['answer'] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });

  const retention = new Counter({
    name: 'gateway_retention_deleted_rows_total',
    help: 'Rows deleted as past their retention by this process: the delivery log (attempts and finished deliveries), events and uploads (files agents attached); stray_uploads counts kept files whose upload was never recorded.',
    labelNames: ['kind'] as const,
    registers,
  });

  // Every backlog gauge is filled from one read, shared by the gauges of one scrape.
  let reading: Promise<Backlog | null> | null = null;
  const backlogFailures = new Counter({
    name: 'gateway_backlog_read_failures_total',
    help: 'Scrapes whose read of the queues failed (the backlog gauges then read NaN, and channels are absent).',
    registers,
  });
  const backlog = () =>
    (reading ??= deps
      .readBacklog()
      .catch(() => {
        backlogFailures.inc();
        return null;
      })
      .finally(() => {
        reading = null;
      }));
  const backlogGauge = (name: string, help: string, value: (b: Backlog) => number) =>
    new Gauge({
      name,
      help,
      registers,
      async collect() {
        const read = await backlog();
        // Unknown, not zero, when the queues could not be read: an alert on the value then neither fires nor clears.
        this.set(read ? value(read) : Number.NaN);
      },
    });
  const lateBy = (due: Date | null) => (due === null ? 0 : Math.max(0, seconds(deps.clock.now().getTime() - due.getTime())));
  backlogGauge('gateway_sends_waiting', 'Outbound messages accepted and not yet handed to the messenger (counted up to 100,000).', (b) => b.sendsWaiting);
  backlogGauge(
    'gateway_sends_oldest_wait_seconds',
    'How long the longest-waiting send (queued, or its messenger call still unanswered) has been due (0 when none is; NaN when 100,000 or more wait).',
    (b) => (b.sendsWaiting >= BACKLOG_COUNT_LIMIT ? Number.NaN : lateBy(b.oldestSendDue)),
  );
  backlogGauge('gateway_webhook_deliveries_open', 'Webhook deliveries pending or being sent (counted up to 100,000).', (b) => b.deliveriesOpen);
  backlogGauge('gateway_webhook_deliveries_late_seconds', 'How long the most overdue webhook delivery waiting to be sent has been due (0 when none is).', (b) => lateBy(b.oldestDeliveryDue));
  backlogGauge('gateway_webhook_subscriptions_failing', 'Active webhook subscriptions whose endpoint keeps failing.', (b) => b.subscriptionsFailing);
  backlogGauge('gateway_webhook_subscriptions_disabled', 'Webhook subscriptions switched off after failing too long.', (b) => b.subscriptionsDisabled);
  new Gauge({
    name: 'gateway_channels',
    help: 'Channels, by transport and status.',
    labelNames: ['transport', 'status'] as const,
    registers,
    async collect() {
      const read = await backlog();
      this.reset();
      for (const c of read?.channels ?? []) this.set({ transport: c.transport, status: c.status }, c.count);
    },
  });
  whatsappSessionGauges(registers, () => deps.whatsappSessions?.() ?? null);
  if (deps.readPacing) pacingGauges(registers, deps.clock, deps.readPacing);
  new Gauge({
    name: 'gateway_realtime_frames',
    help: 'Frames (agent and admin screens) connected to this process over socket.io.',
    registers,
    collect() {
      this.set(deps.connectedFrames());
    },
  });

  /** Times a messenger call; the caller counts what it meant. */
  async function timed<T>(transport: string, operation: string, call: () => Promise<T>): Promise<T> {
    const end = calls.startTimer({ transport, operation });
    try {
      const result = await call();
      end({ result: 'answered' });
      return result;
    } catch (err) {
      end({ result: err instanceof TransientSendError ? 'network_error' : 'error' });
      throw err;
    }
  }

  return {
    registry,
    messaging: (driver) => ({
      async send(message) {
        try {
          const outcome = await timed(message.transport, 'send', () => driver.send(message));
          sends.inc({ transport: message.transport, outcome: outcome.kind === 'failed' ? 'refused' : 'sent' });
          if (outcome.kind === 'failed') failures.inc({ transport: message.transport, reason: outcome.reason });
          return outcome;
        } catch (err) {
          sends.inc({ transport: message.transport, outcome: err instanceof TransientSendError ? 'network_error' : 'error' });
          throw err;
        }
      },
      edit: (input) => timed(input.transport, 'edit', () => driver.edit(input)),
      remove: (input) => timed(input.transport, 'remove', () => driver.remove(input)),
      ...(driver.react ? { react: (input: ReactionRef) => timed(input.transport, 'react', () => driver.react!(input)) } : {}),
      // Typing is sent every few seconds while an agent types: not timed, so as not to crowd the calls' series.
      ...(driver.sendTyping ? { sendTyping: (chat: TypingRef) => driver.sendTyping!(chat) } : {}),
    }),
    hooks: (hooks) =>
      Object.fromEntries(
        Object.entries(hooks).map(([transport, hook]): [string, MessengerHook] => [
          transport,
          async (callback) => {
            try {
              const outcome = await hook(callback);
              updates.inc({ transport, outcome });
              return outcome;
            } catch (err) {
              updates.inc({ transport, outcome: 'error' });
              throw err;
            }
          },
        ]),
      ),
    appHooks: (apps) =>
      Object.fromEntries(
        Object.entries(apps).map(([name, hook]): [string, MessengerAppHook] => [
          name,
          {
            transport: hook.transport,
            verify: (query) => hook.verify(query),
            async receive(callback) {
              try {
                const outcome = await hook.receive(callback);
                updates.inc({ transport: hook.transport, outcome });
                return outcome;
              } catch (err) {
                updates.inc({ transport: hook.transport, outcome: 'error' });
                throw err;
              }
            },
          },
        ]),
      ),
    webhookSender: (sender) => ({
      async post(request) {
        const answer = await sender.post(request);
        posts.observe({ answer: answerClass(answer) }, seconds(answer.latencyMs));
        return answer;
      },
    }),
    answerFailed(transport, reason) {
      answerFailures.inc({ transport, reason });
    },
    hookRefreshed(transport, result) {
      hookRefreshes.inc({ transport, result });
    },
    retained(pass) {
      retention.inc({ kind: 'delivery_log' }, pass.deliveryLog);
      retention.inc({ kind: 'events' }, pass.events);
      retention.inc({ kind: 'uploads' }, pass.uploads);
      retention.inc({ kind: 'stray_uploads' }, pass.strayUploads);
    },
    async webhookAttempts(attempt) {
      attempts.inc({ event: attempt.eventName, outcome: attempt.outcome });
      if (attempt.delivered) delivered.inc({ event: attempt.eventName }, attempt.payloads.length);
    },
  };
}

/** This process's personal WhatsApp sessions: by state, their reconnects, and the sends WhatsApp has not acknowledged yet. */
function whatsappSessionGauges(registers: Registry[], read: () => WaSessionStats | null): void {
  new Gauge({
    name: 'gateway_whatsapp_sessions',
    help: 'Personal WhatsApp sessions this process runs, by state: connecting (no connection open yet), open, unreachable (its channel shows it).',
    labelNames: ['state'] as const,
    registers,
    collect() {
      const stats = read();
      for (const [state, count] of Object.entries(stats?.byState() ?? { connecting: 0, open: 0, unreachable: 0 })) this.set({ state }, count);
    },
  });
  new Counter({
    name: 'gateway_whatsapp_reconnects_total',
    help: 'Reconnects of personal WhatsApp sessions in this process (a connection lost, refused, or given up by the watchdog).',
    registers,
    collect() {
      const stats = read();
      if (!stats) return;
      this.reset();
      this.inc(stats.reconnects);
    },
  });
  new Gauge({
    name: 'gateway_whatsapp_unacked_sends',
    help: 'Messages written to WhatsApp by this process that its server has not acknowledged yet (they stay accepted, and are written again).',
    registers,
    collect() {
      this.set(read()?.acks.stats().unacked ?? 0);
    },
  });
  new Gauge({
    name: 'gateway_whatsapp_oldest_unacked_send_seconds',
    help: 'How long the oldest message written to WhatsApp by this process has waited for its acknowledgement (0 when none waits).',
    registers,
    collect() {
      this.set(seconds(read()?.acks.stats().oldestAgeMs ?? 0));
    },
  });
}
