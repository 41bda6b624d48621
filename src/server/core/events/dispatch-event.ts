import type { Clock, EventRecord, EventRepository } from '../ports.ts';

/** A consumer of the event stream (webhook deliveries, the realtime hub). */
export interface EventSink {
  readonly name: string;
  consume(event: EventRecord): Promise<void>;
  /** Several events at once, in recording order; sinks that can do set-based work offer it. */
  consumeMany?(events: EventRecord[]): Promise<void>;
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
  for (const sink of sinks) {
    if (sink.consumeMany) await sink.consumeMany(due);
    else for (const event of due) await sink.consume(event);
  }
  await events.markDispatched(
    due.map((e) => e.id),
    clock.now(),
  );
  return due.length;
}
