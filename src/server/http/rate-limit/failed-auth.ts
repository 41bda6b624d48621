import type { Clock } from '../../core/ports.ts';
import { attemptGate, type AttemptOutcome } from './attempt-gate.ts';
import type { WindowCounter } from './window-counter.ts';

/**
 * Failed authentications by caller address (client and OAuth tokens, frame session tokens), counted before a
 * credential is even looked at (attempt-gate.ts): at most `maxFailures` credentials from one address are checked in
 * a window, however many arrive at once, and past them the address is refused (429 with Retry-After) until the
 * window ends, whatever it sends, so guessing tokens from one address gets nowhere. A right credential gives its
 * place back, so a client sending many requests at once is not counted. Failures are also counted in the shared
 * rate-limit counter, so an address blocked by one gateway process is blocked by all; the places of checks still
 * running are this process's. The address is the caller's as `trustProxy` tells it: behind a proxy that is not
 * trusted, every caller shares the proxy's address.
 */
export interface FailedAuthLimiter {
  /** Checks the credential (null: refused) unless the address is blocked; a blocked address's credential is never checked. */
  attempt<T>(address: string, check: () => Promise<T | null>): Promise<AttemptOutcome<T>>;
  /** Seconds until the address may try again, or null when it is not blocked. */
  isAddressBlocked(address: string): Promise<number | null>;
}

export interface FailedAuthOptions {
  counter: WindowCounter;
  clock: Clock;
  /** Failures an address may have in one window before it is blocked for the rest of it. */
  maxFailures?: number;
  windowSeconds?: number;
  log?: { warn(obj: object, msg: string): void };
}

/** 30 failures a minute: far beyond a person mistyping or a client with a stale token, far below a guessing run. */
export const failedAuthPolicy = { maxFailures: 30, windowSeconds: 60 } as const;

export function failedAuthLimiter(opts: FailedAuthOptions): FailedAuthLimiter {
  const keyOf = (address: string) => `auth-failures:${address}`;
  const gate = attemptGate({
    clock: opts.clock,
    max: opts.maxFailures ?? failedAuthPolicy.maxFailures,
    windowSeconds: opts.windowSeconds ?? failedAuthPolicy.windowSeconds,
    shared: {
      // As the request limit does: an unreachable counter leaves this process's own count, rather than refusing all.
      async current(address, windowId) {
        try {
          return await opts.counter.current(keyOf(address), windowId);
        } catch (err) {
          opts.log?.warn({ err }, 'failed-authentication counter unavailable; this process counts alone');
          return 0;
        }
      },
      async record(address, windowId, windowMs) {
        try {
          await opts.counter.increment(keyOf(address), windowId, windowMs);
        } catch (err) {
          opts.log?.warn({ err }, 'failed-authentication counter unavailable');
        }
      },
    },
  });
  return {
    attempt: (address, check) => gate.attempt(address, check),
    async isAddressBlocked(address) {
      const seconds = await gate.retryAfter(address);
      return seconds > 0 ? seconds : null;
    },
  };
}
