import type { PgBoss } from 'pg-boss';
import type { JobPayloads } from '../../core/jobs.ts';
import { deliverWebhook, sweepDeliveries, type DeliveryDeps } from '../../core/webhooks/delivery.ts';

export interface DeliveryWorkerOptions {
  /** Deliveries in flight in this process, over all endpoints. */
  concurrency: number;
  /** Deliveries in flight to one subscription in this process (each to a different chat). */
  perEndpoint: number;
}

/**
 * Consumes `webhooks.deliver`. Each worker slot carries one attempt, and one subscription holds at most
 * `perEndpoint` slots, so an endpoint that hangs until the time limit leaves the rest of the slots to others.
 */
export async function workDeliverWebhooks(boss: PgBoss, deps: DeliveryDeps, options: DeliveryWorkerOptions): Promise<string> {
  return boss.work<JobPayloads['webhooks.deliver']>(
    'webhooks.deliver',
    {
      batchSize: 1,
      localConcurrency: options.concurrency,
      localGroupConcurrency: options.perEndpoint,
      // NOTIFY wakes the workers when a job is queued; a retry queued for later is found by polling.
      pollingIntervalSeconds: 2,
      notifyPollingIntervalSeconds: 2,
    },
    async (jobs) => {
      for (const job of jobs) await deliverWebhook(deps, job.data.deliveryId);
    },
  );
}

/**
 * Re-queues deliveries whose wake-up was lost (a process died mid-attempt, a job ran before its due time)
 * every `intervalMs`. The state is in the database; this only notices it.
 */
export function startDeliverySweep(
  deps: Parameters<typeof sweepDeliveries>[0],
  intervalMs: number,
  onError: (err: unknown) => void,
): { stop(): void } {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    sweepDeliveries(deps, intervalMs * 2)
      .catch(onError)
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
