import type { TimerHandle, Timers } from '../transports/whatsapp/timers.ts';

/** Timers that fire only when the test moves them on (`advance`): a bound is reached exactly, without waiting for it. */
export class ManualTimers implements Timers {
  #now: number;
  #due: { at: number; run: () => void; handle: TimerHandle }[] = [];

  constructor(start = Date.UTC(2030, 0, 1)) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  set(run: () => void, ms: number): TimerHandle {
    const handle: TimerHandle = { timer: Symbol('timer') };
    this.#due.push({ at: this.#now + Math.max(0, ms), run, handle });
    return handle;
  }

  clear(handle: TimerHandle | null): void {
    this.#due = this.#due.filter((d) => d.handle !== handle);
  }

  /** Timers waiting now, by how far off each is (ms). */
  pending(): number[] {
    return this.#due.map((d) => d.at - this.#now).sort((a, b) => a - b);
  }

  /** Moves time on by `ms`, running each timer that comes due, in order (those they set too, if due by then). */
  advance(ms: number): void {
    const until = this.#now + ms;
    for (;;) {
      const next = this.#due.filter((d) => d.at <= until).sort((a, b) => a.at - b.at)[0];
      if (!next) break;
      this.#due = this.#due.filter((d) => d !== next);
      this.#now = next.at;
      next.run();
    }
    this.#now = until;
  }
}
