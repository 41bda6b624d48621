import type { Clock, EventRecord, EventRepository } from '../ports.ts';

/**
 * A consumer of the event stream that acts once the events are marked dispatched (the realtime hub's
 * pushes to open connections): at most once, so a crash right after the mark skips it, which costs a live
 * view an update it reads again when it reconnects. Webhook deliveries are not a sink: they are queued by
 * the very statement that records an event, exactly as durable as the event.
 */
export interface EventSink {
  readonly name: string;
  /** A batch of events in recording order, so that a sink can do set-based work for all of them. */
  consume(events: EventRecord[]): Promise<void>;
}

export interface DispatchDeps {
  events: Pick<EventRepository, 'takeUndispatched'>;
  clock: Clock;
  sinks: readonly EventSink[];
}

/**
 * Takes the oldest undispatched events (up to `limit`), marking them dispatched, and hands them to every
 * sink in recording order. Returns how many events were dispatched.
 */
export async function dispatchPending({ events, clock, sinks }: DispatchDeps, limit: number): Promise<number> {
  const due = await events.takeUndispatched(limit, clock.now());
  if (due.length === 0) return 0;
  // Sinks are independent of one another: none waits for another's pushes.
  await Promise.all(sinks.map((sink) => sink.consume(due)));
  return due.length;
}
