import { wakeSignal, type Outage } from '../wake-signal.ts';
import { dispatchNext, type DispatchDeps } from '../../core/events/dispatch-event.ts';
import { streamTail } from '../../core/events/stream-tail.ts';
import type { EventRepository } from '../../core/ports.ts';

export interface DispatchLoopOptions {
  /** Events read per round: one set-based pass of each sink over all of them. */
  batchSize?: number;
  /** How often an idle loop reads anyway (a lost notification, a hole given up on). */
  idlePollMs?: number;
  /** How long a position read past is looked for again before it counts as rolled back. */
  lateCommitMs?: number;
  /** While the database cannot be reached, the loop reads nothing; it goes on once the database is back. */
  outage?: Outage;
  onError(err: unknown): void;
}

export interface DispatchLoop {
  /** Events were recorded (a commit raised the notification): look now. */
  wake(): void;
  /** Whether the event at `position` was handed to the sinks (or given up on) by now. */
  passed(position: number): boolean;
  /** Takes no more events and waits for the round under way. */
  stop(): Promise<void>;
}

/**
 * Follows the events table from the head it finds at start, handing every event committed since to this
 * process's sinks, in batches; it goes again at once while rounds come back full. A commit that recorded
 * events wakes it; the poll is only a backstop. It keeps its place in memory and writes nothing, so each
 * process follows the stream on its own and recording an event costs no update of it afterwards.
 */
export async function startEventDispatch(
  deps: Omit<DispatchDeps, 'events' | 'elapsedMs'> & { events: Pick<EventRepository, 'readStream' | 'streamHead'> },
  options: DispatchLoopOptions,
): Promise<DispatchLoop> {
  const batchSize = options.batchSize ?? 200;
  const idlePollMs = options.idlePollMs ?? 1_000;
  const tail = streamTail(await deps.events.streamHead(), { lateCommitMs: options.lateCommitMs ?? 10_000 });
  const round = { ...deps, elapsedMs: () => performance.now() };
  let stopping = false;
  const signal = wakeSignal();
  const nextSignal = (ms: number) => (stopping ? Promise.resolve() : signal.sleep(ms));

  const loop = (async () => {
    while (!stopping) {
      if (options.outage && !options.outage.up()) {
        await signal.pause(options.outage.whenUp());
        continue;
      }
      signal.clear();
      let full = false;
      try {
        full = await dispatchNext(round, tail, batchSize);
      } catch (err) {
        // A failed read is tried again by the next round; a failed push is not repeated.
        options.onError(err);
      }
      if (!full) await nextSignal(idlePollMs);
    }
  })();

  return {
    wake: signal.wake,
    passed: tail.passed,
    async stop() {
      stopping = true;
      signal.interrupt();
      await loop;
    },
  };
}
