import type { Clock, Store } from './core/ports.ts';
import type { CredentialsCipher } from './core/channels/ports.ts';
import type { AttemptObserver, WebhookSender } from './core/webhooks/delivery.ts';
import type { HostResolver } from './core/webhooks/url-policy.ts';
import { startDeliveryLoop, startDeliverySweep, type DeliveryLoop } from './jobs/workers/deliver-webhooks.ts';
import type { GatewayMetrics } from './metrics.ts';
import type { Outage } from './jobs/wake-signal.ts';

/** Webhook delivery knobs; the defaults are the contract (docs/decisions.md), tests shorten or replace them. */
export interface WebhookOverrides {
  /** DNS for subscribe-time and connect-time address checks. */
  resolveHost?: HostResolver;
  sender?: WebhookSender;
  /** Jitter source of the retry schedule. */
  random?: () => number;
  timeoutMs?: number;
  /** How often the delivery loop is nudged to look for work it was not told about; 0 turns the timer off (tests call `webhooks.sweep`). */
  sweepIntervalMs?: number;
  concurrency?: number;
  perEndpoint?: number;
  /** Most items in one batched POST (the contract's 100). */
  batchLimit?: number;
  /** A lane's deliveries sent one after another in one slot, after one claim (0: one claim per delivery). */
  runLength?: number;
}

export interface WebhookWiring {
  store: Store;
  clock: Clock;
  sealer: CredentialsCipher;
  sender: WebhookSender;
  /** Told of every settled attempt besides the metrics (exports follow their announcement's fate). */
  observers: AttemptObserver[];
  metrics: GatewayMetrics | null;
  log: { error(obj: object, msg: string): void; info(obj: object, msg: string): void };
  /** The database's availability: errors saying it is away are noted there rather than logged one by one. */
  outage?: Outage;
}

/**
 * Starts webhook delivery: the loop that claims and POSTs due deliveries, and the sweep that nudges it and,
 * once an hour, deletes what is past its retention. Stopping is the caller's, loop then sweep.
 */
export function startWebhooks(wiring: WebhookWiring, options: WebhookOverrides): { deliveries: DeliveryLoop; sweeper: { stop(): Promise<void> } | null } {
  const { store, clock, metrics, log } = wiring;
  const deliveries = startDeliveryLoop(
    {
      store,
      clock,
      sealer: wiring.sealer,
      sender: metrics ? metrics.webhookSender(wiring.sender) : wiring.sender,
      random: options.random ?? Math.random,
      timeoutMs: options.timeoutMs ?? 15_000,
      batchLimit: options.batchLimit ?? 100,
      runLength: options.runLength ?? 16,
      // The count first: an observer that throws does not keep an attempt out of it.
      observers: [...(metrics ? [metrics.webhookAttempts] : []), ...wiring.observers],
    },
    {
      concurrency: options.concurrency ?? 64,
      perEndpoint: options.perEndpoint ?? 16,
      ...(wiring.outage ? { outage: wiring.outage } : {}),
      onError: (err) => {
        if (!wiring.outage?.report(err)) log.error({ err }, 'webhook delivery failed');
      },
    },
  );
  const sweepEvery = options.sweepIntervalMs ?? 5_000;
  const sweeper =
    sweepEvery > 0
      ? startDeliverySweep({ store, clock }, sweepEvery, (err) => wiring.outage?.report(err) || log.error({ err }, 'webhook sweep failed'), deliveries.wake, (pass) => {
          metrics?.retained(pass);
          if (pass.deliveryLog + pass.events + pass.uploads > 0) log.info(pass, 'rows past their retention deleted');
        })
      : null;
  return { deliveries, sweeper };
}
