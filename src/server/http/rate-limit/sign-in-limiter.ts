import type { Clock } from '../../core/ports.ts';
import { attemptGate, type AttemptOutcome } from './attempt-gate.ts';
import { hashingBound, hashingPolicy } from './hashing-bound.ts';

/**
 * Password sign-ins per caller address (partners' Basic logins, account owners on the authorization page): at most
 * `max` attempts are checked in a window, counted before they are checked (attempt-gate.ts), and each check's
 * password hash runs within the gateway's hashing bound (hashing-bound.ts). A right password gives its place back;
 * wrong ones keep theirs until the window ends. Counts live in this process: behind a load balancer each process
 * allows `max` on its own.
 */
export interface SignInLimiter {
  /** Checks the password (null: wrong) unless the address is past its limit; refused attempts are never checked. */
  attempt<T>(address: string, check: () => Promise<T | null>): Promise<AttemptOutcome<T>>;
}

export const signInPolicy = { max: 10, windowSeconds: 900 } as const;

export function signInLimiter(
  clock: Clock,
  max: number = signInPolicy.max,
  windowSeconds: number = signInPolicy.windowSeconds,
  hashing = hashingBound(hashingPolicy.concurrent, hashingPolicy.queued),
): SignInLimiter {
  const gate = attemptGate({ clock, max, windowSeconds });
  return { attempt: (address, check) => gate.attempt(address, () => hashing.run(check)) };
}
