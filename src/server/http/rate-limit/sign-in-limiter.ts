import { LRUCache } from 'lru-cache';
import type { Clock } from '../../core/ports.ts';

/**
 * Failed sign-ins per caller address (partners' Basic logins, account owners on the authorization page): past `max`
 * failures in a window the address is refused before its password is even checked, until the window ends. A success
 * does not clear the count, so guessing cannot hide between correct attempts. Counts live in this process: behind a
 * load balancer each process allows `max` on its own.
 */
export interface SignInLimiter {
  /** Seconds until the address may try again, or 0 when it may now. */
  retryAfter(address: string): number;
  failed(address: string): void;
}

export function signInLimiter(clock: Clock, max = 10, windowSeconds = 900): SignInLimiter {
  const windowMs = windowSeconds * 1000;
  const counts = new LRUCache<string, { windowId: number; failures: number }>({ max: 100_000 });
  const windowOf = () => Math.floor(clock.now().getTime() / windowMs);
  return {
    retryAfter(address) {
      const windowId = windowOf();
      const entry = counts.get(address);
      if (!entry || entry.windowId !== windowId || entry.failures < max) return 0;
      return Math.max(1, Math.ceil(((windowId + 1) * windowMs - clock.now().getTime()) / 1000));
    },
    failed(address) {
      const windowId = windowOf();
      const entry = counts.get(address);
      counts.set(address, { windowId, failures: entry && entry.windowId === windowId ? entry.failures + 1 : 1 });
    },
  };
}
