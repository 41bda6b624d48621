import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../testing/manual-clock.ts';
import { failedAuthLimiter, failedAuthPolicy } from './failed-auth.ts';
import { hashingBound, HashingBusy } from './hashing-bound.ts';
import { signInLimiter } from './sign-in-limiter.ts';
import { memoryWindowCounter } from './window-counter.ts';

/** A password check that takes a turn of the event loop or more, counting how many ran and how many at once. */
function slowCheck(rightSecret: string) {
  const seen = { checked: 0, running: 0, mostAtOnce: 0 };
  const check = (secret: string) => async () => {
    seen.checked++;
    seen.running++;
    seen.mostAtOnce = Math.max(seen.mostAtOnce, seen.running);
    await new Promise((r) => setTimeout(r, 2));
    seen.running--;
    return secret === rightSecret ? { partner: 'p1' } : null;
  };
  return { seen, check };
}

describe('sign-in attempts counted before they are checked', () => {
  it('checks no more than the limit of a concurrent burst, and refuses the right secret sent after it', async () => {
    const limiter = signInLimiter(new ManualClock(), 10, 900);
    const { seen, check } = slowCheck('right');
    // 300 at once, the right secret 40th: all started before any check ends.
    const outcomes = await Promise.all(Array.from({ length: 300 }, (_, i) => limiter.attempt('10.0.0.1', check(i === 39 ? 'right' : `wrong${i}`))));
    expect(seen.checked).toBe(10);
    expect(outcomes.filter((o) => o.kind === 'failed')).toHaveLength(10);
    expect(outcomes.filter((o) => o.kind === 'refused')).toHaveLength(290);
    expect(outcomes[39]).toMatchObject({ kind: 'refused', retryAfterSeconds: 900 });
    // Another address is not held by this one's failures.
    expect(await limiter.attempt('10.0.0.2', check('right'))).toEqual({ kind: 'passed', value: { partner: 'p1' } });
  });

  it('lets a burst of right secrets through: they wait for a place rather than being refused', async () => {
    const limiter = signInLimiter(new ManualClock(), 10, 900);
    const { seen, check } = slowCheck('right');
    const outcomes = await Promise.all(Array.from({ length: 50 }, () => limiter.attempt('10.0.0.1', check('right'))));
    expect(outcomes.every((o) => o.kind === 'passed')).toBe(true);
    expect(seen.checked).toBe(50);
  });

  it('keeps failures until the window ends; a right secret does not clear them', async () => {
    const clock = new ManualClock();
    const limiter = signInLimiter(clock, 10, 900);
    const { check } = slowCheck('right');
    for (let i = 0; i < 9; i++) expect((await limiter.attempt('10.0.0.1', check('wrong'))).kind).toBe('failed');
    expect((await limiter.attempt('10.0.0.1', check('right'))).kind).toBe('passed');
    expect((await limiter.attempt('10.0.0.1', check('wrong'))).kind).toBe('failed');
    expect(await limiter.attempt('10.0.0.1', check('right'))).toMatchObject({ kind: 'refused' });
    clock.advance(900_000);
    expect((await limiter.attempt('10.0.0.1', check('right'))).kind).toBe('passed');
  });

  it('hashes two passwords at a time across addresses, and answers busy past a full queue', async () => {
    const bound = hashingBound(2, 5);
    const limiter = signInLimiter(new ManualClock(), 10, 900, bound);
    const { seen, check } = slowCheck('right');
    // 7 addresses' attempts fit (2 running, 5 queued); the 8th and later are refused at once, never hashed.
    const outcomes = await Promise.allSettled(Array.from({ length: 12 }, (_, i) => limiter.attempt(`10.0.1.${i}`, check('right'))));
    expect(seen.mostAtOnce).toBe(2);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(7);
    expect(outcomes.filter((o) => o.status === 'rejected').every((o) => (o as PromiseRejectedResult).reason instanceof HashingBusy)).toBe(true);
    expect(seen.checked).toBe(7);
    // A refused attempt gave its place back: the address may try again.
    expect((await limiter.attempt('10.0.1.11', check('right'))).kind).toBe('passed');
  });

  it('counts token failures the same way, shared by processes through the counter', async () => {
    const clock = new ManualClock();
    const counter = memoryWindowCounter();
    const one = failedAuthLimiter({ counter, clock });
    const other = failedAuthLimiter({ counter, clock });
    const { seen, check } = slowCheck('token');
    const outcomes = await Promise.all(Array.from({ length: 200 }, (_, i) => one.attempt('10.0.0.9', check(i === 150 ? 'token' : 'guess'))));
    expect(seen.checked).toBe(failedAuthPolicy.maxFailures);
    expect(outcomes[150]).toMatchObject({ kind: 'refused' });
    // Another process sharing the counter refuses the address too.
    expect(await other.attempt('10.0.0.9', check('token'))).toMatchObject({ kind: 'refused' });
    expect(await other.isAddressBlocked('10.0.0.9')).toBe(failedAuthPolicy.windowSeconds);
  });
});
