import type { EventRecord, EventRepository } from '../ports.ts';
import type { StreamTail } from './stream-tail.ts';

/**
 * A consumer of the event stream in this process (the realtime hub's pushes to the connections it holds):
 * at most once, so an event recorded while the process is down, or committed later than the tail waits for,
 * costs a live view an update it reads again when it reconnects. Webhook deliveries are not a sink: they are
 * queued by the very statement that records an event, exactly as durable as the event.
 */
export interface EventSink {
  readonly name: string;
  /** A batch of events in recording order, so that a sink can do set-based work for all of them. */
  consume(events: EventRecord[]): Promise<void>;
}

export interface DispatchDeps {
  events: Pick<EventRepository, 'readStream'>;
  sinks: readonly EventSink[];
  /** Milliseconds on a monotonic clock: how long a hole has been open is a matter of real time, not domain time. */
  elapsedMs(): number;
}

/**
 * One read of the stream from where the tail stands: the events it has not handed yet (new ones, and late
 * commits into its holes) go to every sink in position order, then the tail moves past them. Nothing is
 * written back: every process reads the stream for its own sinks. Answers whether the read came back full
 * (more may be waiting).
 */
export async function dispatchNext({ events, sinks, elapsedMs }: DispatchDeps, tail: StreamTail, limit: number): Promise<boolean> {
  const { after, holes } = tail.next();
  const read = await events.readStream(after, holes, limit);
  const fresh = tail.fresh(read);
  try {
    // Sinks are independent of one another: none waits for another's pushes.
    if (fresh.length > 0) await Promise.all(sinks.map((sink) => sink.consume(fresh)));
  } finally {
    // A failed push is not repeated.
    const now = elapsedMs();
    tail.advance(read, now);
    tail.expire(now);
  }
  return read.filter((e) => e.position! > after).length >= limit;
}
