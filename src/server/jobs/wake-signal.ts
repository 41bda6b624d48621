/**
 * How a worker loop sleeps: until someone in this process says there is work (`wake`), or `ms` at most
 * (the poll that finds work nobody announced). A wake that comes while the loop is busy is remembered, so
 * the next `sleep` returns at once.
 */
export function wakeSignal(): { wake(): void; sleep(ms: number): Promise<void>; pause(until: Promise<void>): Promise<void>; clear(): void; interrupt(): void } {
  let signalled = false;
  let interrupt: (() => void) | null = null;
  let release: (() => void) | null = null;
  return {
    wake() {
      signalled = true;
      interrupt?.();
    },
    sleep: (ms) =>
      new Promise<void>((resolve) => {
        if (signalled) return resolve();
        const done = () => {
          clearTimeout(timer);
          interrupt = null;
          resolve();
        };
        const timer = setTimeout(done, ms);
        interrupt = done;
      }),
    /** Waits for `until` (the database back after an outage) whatever wakes come meanwhile; `interrupt` ends it. */
    pause: (until) =>
      new Promise<void>((resolve) => {
        const done = () => {
          release = null;
          resolve();
        };
        release = done;
        void until.then(done);
      }),
    /** Forget earlier wakes: the loop is about to look anyway. */
    clear() {
      signalled = false;
    },
    /** Ends a sleep under way without leaving a wake behind (stopping). */
    interrupt() {
      interrupt?.();
      release?.();
    },
  };
}

/** Waits for the work under way to finish, or `graceMs` at most (what is cut is a lease's to recover). */
export async function finishWithin(work: Iterable<Promise<unknown>>, graceMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.allSettled([...work]), new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
  clearTimeout(timer);
}

/** How a loop learns that its database is away: it reports the errors it meets, and waits while it is down. */
export interface Outage {
  /** Answers whether the error said the database cannot be reached (and notes it). */
  report(err: unknown): boolean;
  up(): boolean;
  whenUp(): Promise<void>;
}

/**
 * Runs a write that must land (a settlement whose work was done already): while it fails because the database
 * cannot be reached, waits for the database and writes again, for `budgetMs` at most (past it, the lease the
 * write belongs to may have run out, and the work is the next claimant's). Other errors are thrown at once.
 */
export async function writeThroughOutage<T>(outage: Outage | undefined, write: () => Promise<T>, budgetMs: number): Promise<T> {
  const deadline = performance.now() + budgetMs;
  for (;;) {
    try {
      return await write();
    } catch (err) {
      if (!outage?.report(err) || performance.now() >= deadline) throw err;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([outage.whenUp(), new Promise((resolve) => (timer = setTimeout(resolve, Math.max(0, deadline - performance.now()))))]);
      clearTimeout(timer);
      // Give the pool a moment when the database was still up by our knowledge (a single broken connection).
      if (outage.up()) await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
