import type { Clock, EventRecord, EventRepository } from '../ports.ts';

/** A consumer of the event stream (webhook deliveries, the realtime hub). */
export interface EventSink {
  readonly name: string;
  consume(event: EventRecord): Promise<void>;
}

export interface DispatchDeps {
  events: EventRepository;
  clock: Clock;
  sinks: readonly EventSink[];
}

/**
 * Hands one recorded event to every sink, then marks it dispatched. Runs from a durable job, so a crash
 * before the mark re-runs it: sinks must be idempotent per event id.
 */
export async function dispatchEvent({ events, clock, sinks }: DispatchDeps, eventId: string): Promise<'dispatched' | 'missing' | 'already'> {
  const event = await events.get(eventId);
  if (!event) return 'missing';
  if (event.dispatchedAt) return 'already';
  for (const sink of sinks) await sink.consume(event);
  await events.markDispatched(event.id, clock.now());
  return 'dispatched';
}
