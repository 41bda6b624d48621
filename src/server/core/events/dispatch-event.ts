import type { Clock, EventRecord, EventRepository } from '../ports.ts';

/** A consumer of the event stream (webhook deliveries, the realtime hub). */
export interface EventSink {
  readonly name: string;
  /** A batch of events in recording order, so that a sink can do set-based work for all of them. */
  consume(events: EventRecord[]): Promise<void>;
}

export interface DispatchDeps {
  events: EventRepository;
  clock: Clock;
  sinks: readonly EventSink[];
}

/** How long a dispatcher holds the events it took before another may take them over. */
const DISPATCH_LEASE_SECONDS = 30;

/**
 * Hands the oldest undispatched events (up to `limit`) to every sink, in recording order, then marks them
 * dispatched. A crash before the mark hands them over again once their lease ran out, so sinks must be
 * idempotent per event id. Returns how many events were handed over.
 */
export async function dispatchPending({ events, clock, sinks }: DispatchDeps, limit: number): Promise<number> {
  const due = await events.leaseUndispatched(limit, DISPATCH_LEASE_SECONDS);
  if (due.length === 0) return 0;
  // Sinks are independent of one another: none waits for another's writes or pushes.
  await Promise.all(sinks.map((sink) => sink.consume(due)));
  await events.markDispatched(
    due.map((e) => e.id),
    clock.now(),
  );
  return due.length;
}
