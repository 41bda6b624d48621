import { LRUCache } from 'lru-cache';
import type { Clock } from '../../core/ports.ts';

/**
 * Sign-in attempts per caller address, counted before they are checked: an attempt holds a place in its address's
 * count while its credential is being checked, and keeps it when the credential is wrong (a failure); a right one
 * gives it back. So however many attempts arrive at once, at most `max` are checked before the failures alone
 * refuse the address until its window ends: a burst cannot slip past the limit while the first checks are still
 * running, and the right secret sent after `max` failures is refused like any other. An attempt that finds the
 * places taken by checks still running waits for one to end rather than being refused, so a client sending many
 * right credentials at once is not turned away.
 */
export type AttemptOutcome<T> = { kind: 'passed'; value: T } | { kind: 'failed' } | { kind: 'refused'; retryAfterSeconds: number };

export interface AttemptGate {
  /** Runs `check` (null: the credential is wrong) once the address may try, or refuses it without running it. */
  attempt<T>(address: string, check: () => Promise<T | null>): Promise<AttemptOutcome<T>>;
  /** Seconds until the address may try again, or 0 when it may now. */
  retryAfter(address: string): Promise<number>;
}

/** Failures counted across processes (the shared rate-limit counter), besides this process's own count. */
export interface SharedFailures {
  current(address: string, windowId: number): Promise<number>;
  record(address: string, windowId: number, windowMs: number): Promise<void>;
}

export interface AttemptGateOptions {
  clock: Clock;
  /** Failures (and checks still running) an address may have in one window. */
  max: number;
  windowSeconds: number;
  shared?: SharedFailures | undefined;
  /** Attempts of one address that may wait for a place at once; past it they are refused. */
  maxWaiting?: number;
}

interface AddressState {
  windowId: number;
  failures: number;
  checking: number;
  waiting: number;
  /** Resolved (and replaced) each time one of the address's checks ends. */
  ended: { promise: Promise<void>; resolve: () => void };
}

const signal = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};

export function attemptGate(opts: AttemptGateOptions): AttemptGate {
  const windowMs = opts.windowSeconds * 1000;
  const maxWaiting = opts.maxWaiting ?? 1_000;
  const states = new LRUCache<string, AddressState>({ max: 100_000 });
  const windowNow = () => {
    const now = opts.clock.now().getTime();
    const windowId = Math.floor(now / windowMs);
    return { windowId, retryAfterSeconds: Math.max(1, Math.ceil(((windowId + 1) * windowMs - now) / 1000)) };
  };
  const stateOf = (address: string, windowId: number): AddressState => {
    let state = states.get(address);
    if (!state) states.set(address, (state = { windowId, failures: 0, checking: 0, waiting: 0, ended: signal() }));
    // A new window forgets the failures, not the checks still running.
    if (state.windowId !== windowId) Object.assign(state, { windowId, failures: 0 });
    return state;
  };
  const sharedFailures = async (address: string, windowId: number) => (opts.shared ? await opts.shared.current(address, windowId) : 0);

  return {
    async retryAfter(address) {
      const { windowId, retryAfterSeconds } = windowNow();
      const failures = Math.max(stateOf(address, windowId).failures, await sharedFailures(address, windowId));
      return failures >= opts.max ? retryAfterSeconds : 0;
    },
    async attempt(address, check) {
      for (;;) {
        const { windowId, retryAfterSeconds } = windowNow();
        const elsewhere = await sharedFailures(address, windowId);
        // Read after the await: between here and the check nothing else runs, so the place taken is exact.
        const state = stateOf(address, windowId);
        const failures = Math.max(state.failures, elsewhere);
        if (failures >= opts.max) return { kind: 'refused', retryAfterSeconds };
        if (failures + state.checking >= opts.max) {
          if (state.waiting >= maxWaiting) return { kind: 'refused', retryAfterSeconds: 1 };
          state.waiting++;
          await state.ended.promise.finally(() => state.waiting--);
          continue;
        }
        state.checking++;
        let value: Awaited<ReturnType<typeof check>>;
        try {
          value = await check();
        } catch (err) {
          // A check that could not run (the database away) is not the caller's failure.
          release(state);
          throw err;
        }
        if (value !== null) {
          release(state);
          return { kind: 'passed', value };
        }
        // Counted as a failure before its place is given back, so no waiting attempt sees the address one short.
        if (state.windowId === windowId) state.failures++;
        release(state);
        await opts.shared?.record(address, windowId, windowMs);
        return { kind: 'failed' };
      }
    },
  };

  function release(state: AddressState) {
    state.checking--;
    const { resolve } = state.ended;
    state.ended = signal();
    resolve();
  }
}
