/**
 * How a worker loop sleeps: until someone in this process says there is work (`wake`), or `ms` at most
 * (the poll that finds work nobody announced). A wake that comes while the loop is busy is remembered, so
 * the next `sleep` returns at once.
 */
export function wakeSignal(): { wake(): void; sleep(ms: number): Promise<void>; clear(): void; interrupt(): void } {
  let signalled = false;
  let interrupt: (() => void) | null = null;
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
    /** Forget earlier wakes: the loop is about to look anyway. */
    clear() {
      signalled = false;
    },
    /** Ends a sleep under way without leaving a wake behind (stopping). */
    interrupt() {
      interrupt?.();
    },
  };
}

/** Waits for the work under way to finish, or `graceMs` at most (what is cut is a lease's to recover). */
export async function finishWithin(work: Iterable<Promise<unknown>>, graceMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.allSettled([...work]), new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
  clearTimeout(timer);
}
