import { wakeSignal } from '../wake-signal.ts';
import { dispatchPending, type DispatchDeps } from '../../core/events/dispatch-event.ts';

export interface DispatchLoopOptions {
  /** Events handed over per round: one set-based webhook fan-out for all of them. */
  batchSize?: number;
  /** How often an idle dispatcher looks for events nobody told it about (a lost notification). */
  idlePollMs?: number;
  onError(err: unknown): void;
}

export interface DispatchLoop {
  /** Events were recorded (a commit raised the notification): look now. */
  wake(): void;
  /** Takes no more events and waits for the round under way. */
  stop(): Promise<void>;
}

/**
 * Dispatches recorded events from the events table in batches: every round marks the oldest undispatched
 * events dispatched (one statement), hands them to the sinks, and goes again at once while rounds come back
 * full.
 * A commit that recorded events wakes it; the poll is only a backstop.
 */
export function startEventDispatch(deps: DispatchDeps, options: DispatchLoopOptions): DispatchLoop {
  const batchSize = options.batchSize ?? 200;
  const idlePollMs = options.idlePollMs ?? 1_000;
  let stopping = false;
  const signal = wakeSignal();
  const wake = signal.wake;
  const nextSignal = (ms: number) => (stopping ? Promise.resolve() : signal.sleep(ms));

  const loop = (async () => {
    while (!stopping) {
      signal.clear();
      let handed = 0;
      try {
        handed = await dispatchPending(deps, batchSize);
      } catch (err) {
        // A failed take left its events undispatched, for the next round; a failed push is not repeated.
        options.onError(err);
      }
      if (handed < batchSize) await nextSignal(idlePollMs);
    }
  })();

  return {
    wake,
    async stop() {
      stopping = true;
      signal.interrupt();
      await loop;
    },
  };
}
