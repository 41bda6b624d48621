import type { MessageDeps } from '../../core/messages/ports.ts';
import { sendClaimed } from '../../core/messages/send-message.ts';
import { finishWithin, wakeSignal, type Outage } from '../wake-signal.ts';

export interface SendLoopOptions {
  /** Sends in flight in this process (claimed, not yet recorded). */
  concurrency?: number;
  /** Chat heads claimed and recorded together. */
  batchSize?: number;
  /** How long a claimed send is this process's before another may take it over (a process that died). */
  leaseSeconds?: number;
  /**
   * How often an idle loop looks for sends nobody told it about: a lost notification, an expired lease, a
   * retry another process scheduled. Retries this process scheduled wake it when they come due.
   */
  idlePollMs?: number;
  /**
   * While sends are in flight, the shortest time between two claims. Each accepted batch wakes the loop; under
   * load, claiming on every wake takes a few heads at a time, and every claim and settlement costs its round
   * trip and statement whatever its size. Spaced claims gather the heads that came due meanwhile, so each
   * claim, driver batch and settlement covers more messages. An idle loop claims at once: at a low rate no
   * send waits for this.
   */
  claimSpacingMs?: number;
  /** While the database cannot be reached, the loop claims nothing; it goes on once the database is back. */
  outage?: Outage;
  onError(err: unknown): void;
}

export interface SendLoop {
  /** Sends were accepted (here, or announced by another process): look now. */
  wake(): void;
  /** Claims no more and waits up to `graceMs` for the batches in flight (a cut one is sent again after its lease). */
  stop(graceMs: number): Promise<void>;
}

/**
 * Sends accepted messages straight from the messages table: every round claims the due head of each chat
 * (as many as there is room for), hands them to the messenger in parallel and records the answers in one
 * transaction. Recording a head frees its chat's next message, so a finished batch looks again at once.
 * The state is in the table; the loop only decides when to look.
 */
export function startSendLoop(deps: MessageDeps, options: SendLoopOptions): SendLoop {
  const concurrency = options.concurrency ?? 64;
  const batchSize = options.batchSize ?? 32;
  const leaseSeconds = options.leaseSeconds ?? 30;
  const idlePollMs = options.idlePollMs ?? 1_000;
  const claimSpacingMs = options.claimSpacingMs ?? 4;
  const batches = new Set<Promise<void>>();
  let inFlight = 0;
  /** The earliest retry this process put back, if any. */
  let retryDue: number | null = null;
  let stopping = false;
  /** When the last claim answered: under load the next waits `claimSpacingMs` from there. */
  let lastClaimAt = -Infinity;
  const signal = wakeSignal();
  const nextSignal = (ms: number) => (stopping ? Promise.resolve() : signal.sleep(ms));

  const run = (claims: Awaited<ReturnType<MessageDeps['store']['sends']['claim']>>) => {
    inFlight += claims.length;
    const batch: Promise<void> = sendClaimed(deps, claims)
      .then((due) => {
        if (due) retryDue = Math.min(retryDue ?? Infinity, due.getTime());
      })
      .catch(options.onError)
      .finally(() => {
        inFlight -= claims.length;
        batches.delete(batch);
        signal.wake();
      });
    batches.add(batch);
  };

  const loop = (async () => {
    while (!stopping) {
      // Sends accepted together (and batches finished together) are claimed together.
      await new Promise((resolve) => setImmediate(resolve));
      if (options.outage && !options.outage.up()) {
        await signal.pause(options.outage.whenUp());
        continue;
      }
      const spacing = inFlight > 0 ? lastClaimAt + claimSpacingMs - performance.now() : 0;
      if (spacing > 0) await new Promise((resolve) => setTimeout(resolve, spacing));
      if (stopping) break;
      signal.clear();
      const room = Math.min(batchSize, concurrency - inFlight);
      if (room <= 0) {
        await nextSignal(idlePollMs);
        continue;
      }
      let full = false;
      try {
        const claims = await deps.store.sends.claim({ limit: room, leaseSeconds, now: deps.clock.now() });
        lastClaimAt = performance.now();
        full = claims.length === room;
        if (claims.length > 0) run(claims);
      } catch (err) {
        options.onError(err);
      }
      // A claim that got less than it asked for took every due head: more come with a wake (sends accepted,
      // a batch recorded), not by asking again at once.
      if (full || stopping) continue;
      const now = deps.clock.now().getTime();
      // A retry that came due was looked for by this claim; the next one may be later.
      if (retryDue !== null && retryDue <= now) retryDue = null;
      await nextSignal(retryDue === null ? idlePollMs : Math.min(idlePollMs, retryDue - now));
    }
  })();

  return {
    wake: signal.wake,
    async stop(graceMs) {
      stopping = true;
      signal.interrupt();
      await loop;
      await finishWithin(batches, graceMs);
    },
  };
}
