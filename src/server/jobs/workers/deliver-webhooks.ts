import type { Job, PgBoss } from 'pg-boss';
import type { JobPayloads } from '../../core/jobs.ts';
import { pruneDeliveryLog } from '../../core/webhooks/delivery-log.ts';
import { deliverWebhook, sweepDeliveries, type DeliveryDeps } from '../../core/webhooks/delivery.ts';

const QUEUE = 'webhooks.deliver';

export interface DeliveryLoopOptions {
  /** Attempts in flight in this process, over all endpoints. */
  concurrency: number;
  /** Attempts in flight to one endpoint in this process (each to a different chat). */
  perEndpoint: number;
  /** How often an idle loop looks for jobs queued by other processes. */
  idlePollMs?: number;
  onError(err: unknown): void;
}

export interface DeliveryLoop {
  /** A delivery job was just queued here: look now rather than at the next poll. */
  wake(): void;
  /** Takes no more jobs and waits up to `graceMs` for the attempts in flight (a cut one is retried after its lease). */
  stop(graceMs: number): Promise<void>;
}

/**
 * Consumes `webhooks.deliver` with one fetch loop and a pool of slots. Each attempt holds one slot until
 * its own answer (or time limit), never a batch's; one endpoint holds at most `perEndpoint` slots, and its
 * jobs are left in the queue while it is full, so an endpoint that hangs leaves every other slot to others.
 */
export function startDeliveryLoop(boss: PgBoss, deps: DeliveryDeps, options: DeliveryLoopOptions): DeliveryLoop {
  const idlePollMs = options.idlePollMs ?? 250;
  const perEndpoint = new Map<string, number>();
  const running = new Set<Promise<void>>();
  let stopping = false;
  let signalled = false;
  let interrupt: (() => void) | null = null;

  const wake = () => {
    signalled = true;
    interrupt?.();
  };
  /** Until `wake` (or a wake that came meanwhile), or `ms` at most. */
  const nextSignal = (ms: number) =>
    new Promise<void>((resolve) => {
      if (signalled || stopping) return resolve();
      const done = () => {
        clearTimeout(timer);
        interrupt = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      interrupt = done;
    }).then(() => {
      signalled = false;
    });

  const run = (job: Job<JobPayloads[typeof QUEUE]>) => {
    const endpoint = job.groupId ?? '';
    perEndpoint.set(endpoint, (perEndpoint.get(endpoint) ?? 0) + 1);
    const attempt: Promise<void> = (async () => {
      try {
        await deliverWebhook(deps, job.data.deliveryId);
        await boss.complete(QUEUE, job.id);
      } catch (err) {
        options.onError(err);
        await boss.fail(QUEUE, job.id, { message: err instanceof Error ? err.message : String(err) }).catch(options.onError);
      }
    })().finally(() => {
      const left = (perEndpoint.get(endpoint) ?? 1) - 1;
      if (left > 0) perEndpoint.set(endpoint, left);
      else perEndpoint.delete(endpoint);
      running.delete(attempt);
      // A settled attempt usually queued the next one of its lane.
      wake();
    });
    running.add(attempt);
  };

  const loop = (async () => {
    while (!stopping) {
      const free = options.concurrency - running.size;
      const full = [...perEndpoint].filter(([, n]) => n >= options.perEndpoint).map(([endpoint]) => endpoint);
      const busiest = Math.max(0, ...[...perEndpoint.values()].filter((n) => n < options.perEndpoint));
      // No endpoint may receive more jobs from one fetch than it has room for.
      const batchSize = Math.min(free, options.perEndpoint - busiest);
      if (batchSize <= 0) {
        await nextSignal(idlePollMs); // a slot frees up
        continue;
      }
      signalled = false;
      let fetched = 0;
      try {
        const jobs = await boss.fetch<JobPayloads[typeof QUEUE]>(QUEUE, { batchSize, ignoreGroups: full });
        fetched = jobs.length;
        for (const job of jobs) run(job);
      } catch (err) {
        options.onError(err);
      }
      if (fetched === 0) await nextSignal(idlePollMs);
    }
  })();

  return {
    wake,
    async stop(graceMs) {
      stopping = true;
      interrupt?.();
      await loop;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.allSettled([...running]), new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
    },
  };
}

const PRUNE_EVERY_MS = 60 * 60 * 1000;

/**
 * Re-queues deliveries whose wake-up was lost (a process died mid-attempt, a job ran before its due time)
 * every `intervalMs`, and once an hour trims the delivery log to its retention. The state is in the
 * database; this only notices it.
 */
export function startDeliverySweep(
  deps: Parameters<typeof sweepDeliveries>[0],
  intervalMs: number,
  onError: (err: unknown) => void,
  onQueued: () => void,
): { stop(): void } {
  let running = false;
  let prunedAt = 0;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    void (async () => {
      // A queued job normally runs within moments; one still not run after a minute was lost.
      if ((await sweepDeliveries(deps, Math.max(intervalMs * 2, 60_000))) > 0) onQueued();
      if (Date.now() - prunedAt >= PRUNE_EVERY_MS) {
        prunedAt = Date.now();
        await pruneDeliveryLog(deps);
      }
    })()
      .catch(onError)
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
