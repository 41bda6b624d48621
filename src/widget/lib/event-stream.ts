import type { CaughtUp, Resync, StreamEvent } from '../../contract/realtime.ts';

const REMEMBERED_IDS = 5000;

/**
 * The client's side of the stream's guarantees: it remembers the position to resume from and drops repeats
 * (a catch-up resends an overlap window; a retried dispatch pushes twice). Until a connection's catch-up has
 * arrived, a live event may be ahead of events still missing, so only the catch-up moves the position then.
 */
export class EventStream {
  #position: number | undefined;
  #caughtUp = false;
  #ids = new Set<string>();
  #order: string[] = [];

  /** Sent in the handshake: the position after which events are wanted. */
  get position(): number | undefined {
    return this.#position;
  }

  /** A new connection starts: live events do not move the position until its catch-up arrives. */
  connecting(): void {
    this.#caughtUp = false;
  }

  /** A live event; false when it was seen before. */
  live(event: StreamEvent): boolean {
    const fresh = this.#remember(event.id);
    if (this.#caughtUp) this.#position = Math.max(this.#position ?? 0, event.position);
    return fresh;
  }

  /** The catch-up of a connection; returns the events not seen before, oldest first. */
  caughtUp(batch: CaughtUp): StreamEvent[] {
    const fresh = batch.events.filter((e) => this.#remember(e.id));
    this.#position = Math.max(this.#position ?? 0, batch.position, ...batch.events.map((e) => e.position));
    this.#caughtUp = true;
    return fresh;
  }

  /** Too far behind: the caller refetches over HTTP; the stream goes on from the given position. */
  resync(signal: Resync): void {
    this.#position = signal.position;
    this.#caughtUp = true;
  }

  #remember(id: string): boolean {
    if (this.#ids.has(id)) return false;
    this.#ids.add(id);
    this.#order.push(id);
    if (this.#order.length > REMEMBERED_IDS) this.#ids.delete(this.#order.shift()!);
    return true;
  }
}

/**
 * Live pushes run in parallel, so two events of one chat or channel can arrive out of order. Apply an event
 * to its subject only when it is newer than the last one applied there.
 */
export class Freshness {
  #last = new Map<string, number>();

  isNewer(subject: string, position: number): boolean {
    const last = this.#last.get(subject);
    if (last !== undefined && last >= position) return false;
    this.#last.set(subject, position);
    return true;
  }
}
