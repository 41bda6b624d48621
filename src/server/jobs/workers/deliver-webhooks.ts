import { applyRetention, type RetentionDeps, type RetentionPass } from '../../core/events/retention.ts';
import {
  announceAttempt,
  attemptDelivery,
  claimDeliveries,
  nextDeliveryDue,
  RUN_WINDOW_MS,
  settleDeliveries,
  type DeliveryDeps,
} from '../../core/webhooks/delivery.ts';
import type { ClaimedRun, Settlement } from '../../core/webhooks/ports.ts';
import { finishWithin, wakeSignal, writeThroughOutage, type Outage } from '../wake-signal.ts';
import { groupCommit } from '../webhooks/group-commit.ts';

export interface DeliveryLoopOptions {
  /** Attempts in flight in this process, over all endpoints. */
  concurrency: number;
  /** Attempts in flight to one endpoint in this process (each to a different chat). */
  perEndpoint: number;
  /**
   * How often an idle loop looks for work nobody told it about: retries that came due, deliveries queued
   * by other processes, attempts whose lease ran out. Work this process queues or settles wakes it at once.
   */
  idlePollMs?: number;
  /** While the database cannot be reached, the loop claims nothing, and settlements wait for it to come back. */
  outage?: Outage;
  onError(err: unknown): void;
}

/**
 * How long a settlement of a POST already answered waits for an unreachable database: an outage shorter than
 * this ends with the delivery recorded once rather than sent again after its lease (30 s from the claim).
 */
const SETTLE_THROUGH_OUTAGE_MS = 20_000;

export interface DeliveryLoop {
  /** Deliveries were just queued (or settled) here: look now rather than at the next poll. */
  wake(): void;
  /** Takes no more work and waits up to `graceMs` for the attempts in flight (a cut one is retried after its lease). */
  stop(graceMs: number): Promise<void>;
}

/**
 * Sends webhooks straight from the deliveries table: one claim takes every due lane head this process
 * has room for, the POSTs run concurrently (each holding one slot until its own answer or time limit, so
 * an endpoint that hangs only ever holds its own `perEndpoint` slots), and finished attempts are settled
 * in shared transactions. The state is in the table; the loop only decides when to look.
 */
export function startDeliveryLoop(deps: DeliveryDeps, options: DeliveryLoopOptions): DeliveryLoop {
  const idlePollMs = options.idlePollMs ?? 1_000;
  const inFlight = new Map<string, number>();
  const attempts = new Set<Promise<void>>();
  const settler = groupCommit<Settlement>((settlements) => writeThroughOutage(options.outage, () => settleDeliveries(deps, settlements), SETTLE_THROUGH_OUTAGE_MS));
  let posting = 0;
  /** The last claim may have left due work behind for lack of room: a freed slot is worth a look. */
  let roomWanted = false;
  let stopping = false;
  const signal = wakeSignal();
  const wake = signal.wake;
  const nextSignal = (ms: number) => (stopping ? Promise.resolve() : signal.sleep(ms));

  const release = (endpoint: string) => {
    posting--;
    const left = (inFlight.get(endpoint) ?? 1) - 1;
    if (left > 0) inFlight.set(endpoint, left);
    else inFlight.delete(endpoint);
  };

  /**
   * One slot: the run's POSTs strictly one after another, the next only once the one before was answered
   * 2xx. Settlements are committed behind the POSTs (group commit), not waited for between them: a crash
   * before a commit sends those deliveries again, in lane order, after their lease. Followers held by the
   * head's lease go first: the head's settlement, which opens the lane, is queued behind theirs (the group
   * commit keeps their order). A run stops at a failure, on stop, or past its window; what it did not
   * attempt was never taken (see `ClaimedWork.underHeadLease`), and is due again once the head settles.
   */
  const run = (works: ClaimedRun, claimedAt: number) => {
    posting++;
    const endpoint = works[0].endpoint;
    inFlight.set(endpoint, (inFlight.get(endpoint) ?? 0) + 1);
    const holdsFollowers = works.some((w) => w.underHeadLease);
    const attempt: Promise<void> = (async () => {
      const settled: Promise<void>[] = [];
      const settle = (settlement: Settlement) => settled.push(settler.add(settlement).then(() => announceAttempt(deps, settlement)));
      let head: Settlement | undefined;
      let next = 0;
      try {
        while (next < works.length) {
          if (next > 0 && (stopping || performance.now() - claimedAt > RUN_WINDOW_MS)) break;
          const settlement = await attemptDelivery(deps, works[next++]!);
          if (next === 1 && holdsFollowers && settlement.outcome === 'delivered') head = settlement;
          else {
            // Disabling fails every open delivery of the subscription, a held head too: the head goes first.
            if (head && settlement.outcome === 'disabled') {
              settle(head);
              head = undefined;
            }
            settle(settlement);
          }
          if (settlement.outcome !== 'delivered') break;
        }
      } finally {
        if (head) settle(head);
        // The slot is the POSTs'; the lane stays closed until the settlements commit.
        release(endpoint);
        if (roomWanted) wake();
        const outcomes = await Promise.allSettled(settled);
        // An attempt that could not be recorded stays leased, and is sent again once the lease runs out.
        for (const o of outcomes) if (o.status === 'rejected') options.onError(o.reason);
      }
    })()
      .catch(options.onError)
      .finally(() => {
        attempts.delete(attempt);
        // The next delivery of the lane is the head now.
        wake();
      });
    attempts.add(attempt);
  };

  // While attempts are in flight, a claim waits until a quarter of the slots are free: one claim (one
  // scan of the lane heads) then serves several answers instead of each answer paying for its own.
  const worthClaiming = Math.max(1, Math.floor(options.concurrency / 4));
  const loop = (async () => {
    while (!stopping) {
      // Answers that arrived together free their slots together.
      await new Promise((resolve) => setImmediate(resolve));
      if (options.outage && !options.outage.up()) {
        await signal.pause(options.outage.whenUp());
        continue;
      }
      const free = options.concurrency - posting;
      if (free <= 0 || (posting > 0 && free < worthClaiming)) {
        roomWanted = true;
        await nextSignal(idlePollMs);
        signal.clear();
        continue;
      }
      signal.clear();
      let claimed = 0;
      try {
        const claimedAt = performance.now();
        const runs = await claimDeliveries(deps, { limit: free, perEndpoint: options.perEndpoint, inFlight });
        claimed = runs.length;
        for (const works of runs) run(works, claimedAt);
        // Fewer than the room allowed and no endpoint full: every due head was taken, and what comes next
        // (new work, a settled head's successor) wakes the loop. Otherwise a freed slot is worth a look.
        roomWanted = runs.length >= free || [...inFlight.values()].some((n) => n >= options.perEndpoint);
      } catch (err) {
        options.onError(err);
      }
      if (stopping || (claimed > 0 && roomWanted)) continue;
      // The attempts just claimed wake the loop as they settle, and it looks for due retries then.
      if (claimed > 0) {
        await nextSignal(idlePollMs);
        continue;
      }
      let wait = idlePollMs;
      try {
        const due = await nextDeliveryDue(deps);
        if (due) wait = Math.min(wait, Math.max(0, due.getTime() - deps.clock.now().getTime()));
      } catch (err) {
        options.onError(err);
      }
      await nextSignal(wait);
    }
  })();

  return {
    wake,
    async stop(graceMs) {
      stopping = true;
      signal.interrupt();
      await loop;
      await finishWithin(attempts, graceMs);
    },
  };
}

const PRUNE_EVERY_MS = 60 * 60 * 1000;

/**
 * Once an hour deletes what is past its retention (the delivery log, then events), and every `intervalMs`
 * nudges the delivery loop, as a backstop for work it was not told about. The state is in the database; this
 * only notices it. Stopping waits for the pass in progress to end its current batch.
 */
export function startDeliverySweep(
  deps: RetentionDeps,
  intervalMs: number,
  onError: (err: unknown) => void,
  wake: () => void,
  onRetention: (pass: RetentionPass) => void = () => {},
): { stop(): Promise<void> } {
  let pass: Promise<void> | null = null;
  let stopping = false;
  let prunedAt = 0;
  const timer = setInterval(() => {
    wake();
    if (pass || Date.now() - prunedAt < PRUNE_EVERY_MS) return;
    prunedAt = Date.now();
    pass = applyRetention(deps, { stopping: () => stopping })
      .then(onRetention, onError)
      .finally(() => {
        pass = null;
      });
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      stopping = true;
      clearInterval(timer);
      await pass;
    },
  };
}
