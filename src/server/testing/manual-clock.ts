import type { Clock } from '../core/ports.ts';

/** A clock that moves only when told to, for tests of windows, expiries and timestamps. */
export class ManualClock implements Clock {
  #ms: number;

  constructor(start: Date | number = Date.UTC(2030, 0, 1)) {
    this.#ms = typeof start === 'number' ? start : start.getTime();
  }

  now(): Date {
    return new Date(this.#ms);
  }

  advance(ms: number): void {
    this.#ms += ms;
  }

  set(at: Date | number): void {
    this.#ms = typeof at === 'number' ? at : at.getTime();
  }
}
