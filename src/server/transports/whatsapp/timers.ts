/**
 * The timers a session runs on (its reconnect waits, its watchdog, a send's wait for WhatsApp's acknowledgement):
 * the process's own in production; tests move a manual one and reach each bound without waiting for it.
 */
export interface Timers {
  now(): number;
  set(run: () => void, ms: number): TimerHandle;
  clear(handle: TimerHandle | null): void;
}

export type TimerHandle = { readonly timer: unknown };

export const realTimers: Timers = {
  now: () => Date.now(),
  set: (run, ms) => ({ timer: setTimeout(run, ms) }),
  clear: (handle) => {
    if (handle) clearTimeout(handle.timer as NodeJS.Timeout);
  },
};
