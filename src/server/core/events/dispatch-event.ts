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

/**
 * Hands recorded events to every sink, in recording order, then marks them dispatched. Runs from durable
 * jobs, so a crash before the mark re-runs them: sinks must be idempotent per event id. Returns how many
 * events were handed over (those already dispatched or gone are skipped).
 */
export async function dispatchEvents({ events, clock, sinks }: DispatchDeps, eventIds: string[]): Promise<number> {
  const due = (await events.getMany([...new Set(eventIds)])).filter((e) => !e.dispatchedAt);
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
