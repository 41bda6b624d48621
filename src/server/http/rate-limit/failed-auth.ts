import type { Clock } from '../../core/ports.ts';
import type { WindowCounter } from './window-counter.ts';

/**
 * Failed authentications by caller address, counted before a credential is even looked at: past the threshold an
 * address is refused (429 with Retry-After) until its window ends, whatever it sends, so guessing tokens, session
 * tokens or passwords from one address gets nowhere. The address is the caller's as `trustProxy` tells it: behind
 * a proxy that is not trusted, every caller shares the proxy's address.
 */
export interface FailedAuthLimiter {
  /** Counts one failed authentication from the address. */
  recordFailedAuth(address: string): Promise<void>;
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
  const max = opts.maxFailures ?? failedAuthPolicy.maxFailures;
  const windowMs = (opts.windowSeconds ?? failedAuthPolicy.windowSeconds) * 1000;
  const keyOf = (address: string) => `auth-failures:${address}`;
  const windowAt = () => {
    const now = opts.clock.now().getTime();
    const windowId = Math.floor(now / windowMs);
    return { windowId, resetSeconds: Math.max(1, Math.ceil(((windowId + 1) * windowMs - now) / 1000)) };
  };
  return {
    async recordFailedAuth(address) {
      try {
        await opts.counter.increment(keyOf(address), windowAt().windowId, windowMs);
      } catch (err) {
        opts.log?.warn({ err }, 'failed-authentication counter unavailable');
      }
    },
    async isAddressBlocked(address) {
      const { windowId, resetSeconds } = windowAt();
      try {
        return (await opts.counter.current(keyOf(address), windowId)) >= max ? resetSeconds : null;
      } catch (err) {
        // As the request limit does: an unreachable counter lets requests through rather than refusing all.
        opts.log?.warn({ err }, 'failed-authentication counter unavailable; request let through');
        return null;
      }
    },
  };
}
