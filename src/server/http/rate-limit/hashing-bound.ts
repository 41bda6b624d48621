import { AppError } from '../../core/errors.ts';

/**
 * Password checks (Argon2id, 19 MiB and two passes each) run a few at a time, the rest queued, and past a full queue
 * refused with 503 at once: callers who have not signed in yet cannot spend the gateway's CPU and memory on hashes,
 * nor crowd out the thread pool the rest of the gateway shares. The queue is what keeps a burst of rightful
 * sign-ins from being refused; how many of them one address may have at a time is the sign-in limit's business.
 */
export interface HashingBound {
  run<T>(check: () => Promise<T>): Promise<T>;
}

export const hashingPolicy = { concurrent: 2, queued: 64 } as const;

/** Answered while the queue is full: the client tries again after Retry-After. */
export class HashingBusy extends AppError {
  constructor() {
    super('SERVICE_UNAVAILABLE', 'Too many sign-ins are being checked at the moment; try again shortly', { retry_after: 1 });
  }
}

export function hashingBound(concurrent: number = hashingPolicy.concurrent, queued: number = hashingPolicy.queued): HashingBound {
  let running = 0;
  const waiting: (() => void)[] = [];
  return {
    async run(check) {
      if (running >= concurrent) {
        if (waiting.length >= queued) throw new HashingBusy();
        await new Promise<void>((resolve) => waiting.push(resolve));
      } else {
        running++;
      }
      try {
        return await check();
      } finally {
        // The place passes straight to the next in line, so `running` never drops below what is really running.
        const next = waiting.shift();
        if (next) next();
        else running--;
      }
    },
  };
}
