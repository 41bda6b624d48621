import { describe, expect, it } from 'vitest';
import { databaseAvailability, isDatabaseUnavailable } from './availability.ts';

const pgError = (code: string, message = 'server said no') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it('names the errors of a database that went away or cannot write, and no others', () => {
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(pgError('ECONNREFUSED'))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([pgError('ECONNREFUSED'), pgError('ECONNREFUSED')]))).toBe(true);
    expect(isDatabaseUnavailable(pgError('57P01', 'terminating connection due to administrator command'))).toBe(true);
    expect(isDatabaseUnavailable(pgError('25006', 'cannot execute INSERT in a read-only transaction'))).toBe(true);
    expect(isDatabaseUnavailable(pgError('08006'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('could not write to file "pg_wal/x": No space left on device'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('wrapped', { cause: pgError('ENOSPC') }))).toBe(true);
    expect(isDatabaseUnavailable(pgError('23505', 'duplicate key value violates unique constraint'))).toBe(false);
    expect(isDatabaseUnavailable(pgError('42601', 'syntax error'))).toBe(false);
    expect(isDatabaseUnavailable(new Error('Request validation failed'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});

describe('databaseAvailability', () => {
  it('goes down on an outage error, probes until the database answers, then wakes its waiters and listeners', async () => {
    let answers = false;
    let probes = 0;
    const availability = databaseAvailability(
      async () => {
        probes++;
        if (!answers) throw pgError('ECONNREFUSED');
      },
      { probeMs: 1 },
    );
    let recovered = 0;
    availability.onRecovered(() => recovered++);
    expect(availability.report(pgError('23505'))).toBe(false);
    expect(availability.up()).toBe(true);

    expect(availability.report(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(availability.up()).toBe(false);
    let back = false;
    const waiting = availability.whenUp().then(() => (back = true));
    while (probes < 3) await new Promise((r) => setTimeout(r, 1));
    expect([back, recovered, availability.up()]).toEqual([false, 0, false]);

    answers = true;
    await waiting;
    expect([back, recovered, availability.up()]).toEqual([true, 1, true]);
    await availability.whenUp();
    availability.close();
  });

  it('lets waiters go when closed, so a stopping loop is not held by an outage', async () => {
    const availability = databaseAvailability(() => Promise.reject(pgError('ECONNREFUSED')), { probeMs: 1 });
    availability.report(pgError('ECONNRESET'));
    const waiting = availability.whenUp();
    availability.close();
    await expect(waiting).resolves.toBeUndefined();
  });
});
