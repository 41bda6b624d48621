import type { Clock, EventRecord, Store, TransactionScope } from '../ports.ts';

/**
 * A consumer of the event stream. A durable consumer (webhook deliveries) writes what the events cause in
 * `record`, inside the transaction that marks them dispatched, so it happens exactly once: a crash before
 * the commit leaves the events undispatched for the next round, with nothing written. `consume` runs once
 * that commit is done (pushes to open connections, waking local workers): at most once, so a crash right
 * after the commit skips it, which costs a live view an update it reads again when it reconnects.
 */
export interface EventSink {
  readonly name: string;
  /** A batch of events in recording order, so that a sink can do set-based work for all of them. */
  record?(tx: TransactionScope, events: EventRecord[]): Promise<void>;
  consume?(events: EventRecord[]): Promise<void>;
}

export interface DispatchDeps {
  store: Pick<Store, 'transaction'>;
  clock: Clock;
  sinks: readonly EventSink[];
}

/**
 * Takes the oldest undispatched events (up to `limit`) and marks them dispatched, with every sink's
 * `record` in the same transaction; then hands them to every sink's `consume`, in recording order.
 * Returns how many events were dispatched.
 */
export async function dispatchPending({ store, clock, sinks }: DispatchDeps, limit: number): Promise<number> {
  const due = await store.transaction(async (tx) => {
    const events = await tx.events.takeUndispatched(limit, clock.now());
    if (events.length > 0) for (const sink of sinks) await sink.record?.(tx, events);
    return events;
  });
  if (due.length === 0) return 0;
  // Sinks are independent of one another: none waits for another's pushes.
  await Promise.all(sinks.map((sink) => sink.consume?.(due)));
  return due.length;
}
