/**
 * Where a reader of the event stream stands, without writing anything back: the highest position it has
 * read (`top`), and the positions below it that were missing when it read past them (holes).
 *
 * Positions are taken when an event is inserted, not when it commits, so a reader can see position 12
 * while 11 is still in a transaction that commits a moment later. A hole is therefore asked for again on
 * every read until it turns up, or until `lateCommitMs` have passed since it was first seen: then it is taken
 * for a rolled-back insert (or a commit too late to matter) and forgotten. Nothing is handed twice.
 */
export interface StreamTail {
  /** What the next read asks for: events after `after`, and those at the open holes. */
  next(): { after: number; holes: number[] };
  /** The events of a read that were not handed before, in position order. Changes nothing. */
  fresh<T extends Positioned>(events: readonly T[]): T[];
  /** Takes a read's events as handed: fills the holes they were in, opens those they skipped, moves `top`. */
  advance(events: readonly Positioned[], nowMs: number): void;
  /** Forgets the holes older than the late-commit window. */
  expire(nowMs: number): void;
  /** Whether the event at `position` has been handed (or given up on) by now. */
  passed(position: number): boolean;
}

type Positioned = { position?: number };

export interface StreamTailOptions {
  /** How long a missing position is looked for again before it counts as never committed. */
  lateCommitMs: number;
  /** At most this many holes are kept (the oldest go first): a huge rolled-back batch costs no more. */
  maxHoles?: number;
}

export function streamTail(start: number, options: StreamTailOptions): StreamTail {
  const maxHoles = options.maxHoles ?? 10_000;
  let top = start;
  /** Position → when it was first seen missing. Insertion order is age order. */
  const holes = new Map<number, number>();

  const open = (position: number, nowMs: number) => {
    holes.set(position, nowMs);
    if (holes.size > maxHoles) holes.delete(holes.keys().next().value!);
  };

  return {
    next: () => ({ after: top, holes: [...holes.keys()] }),
    fresh: (events) => events.filter(({ position }) => position !== undefined && (position > top || holes.has(position))),
    advance(events, nowMs) {
      const positions = events.flatMap(({ position }) => (position === undefined ? [] : [position]));
      for (const position of positions.sort((a, b) => a - b)) {
        if (position <= top) {
          holes.delete(position);
          continue;
        }
        // A gap this wide is a rolled-back batch or a sequence jump: only the newest positions can still come.
        for (let p = Math.max(top + 1, position - maxHoles); p < position; p++) open(p, nowMs);
        top = position;
      }
    },
    expire(nowMs) {
      for (const [position, since] of holes) {
        if (nowMs - since < options.lateCommitMs) break;
        holes.delete(position);
      }
    },
    passed: (position) => position <= top && !holes.has(position),
  };
}
