import { describe, expect, it } from 'vitest';
import type { AppError } from '../errors.ts';
import { parseInstant, parsePeriod } from './period.ts';

const iso = (value: string) => parseInstant(value)?.toISOString() ?? null;

describe('ISO 8601 instants', () => {
  it.each([
    ['2030-01-31', '2030-01-31T00:00:00.000Z'],
    ['2030-01-31T10:20:30Z', '2030-01-31T10:20:30.000Z'],
    ['2030-01-31T10:20:30.123456z', '2030-01-31T10:20:30.123Z'],
    ['2030-01-31T10:20', '2030-01-31T10:20:00.000Z'],
    ['2030-01-31 10:20:30', '2030-01-31T10:20:30.000Z'],
    ['2030-01-31T03:00:00+03:00', '2030-01-31T00:00:00.000Z'],
    ['2030-01-31T00:00:00-0530', '2030-01-31T05:30:00.000Z'],
    ['2030-01-31T00:00:00+05', '2030-01-30T19:00:00.000Z'],
    ['2028-02-29', '2028-02-29T00:00:00.000Z'],
  ])('%s is %s', (value, expected) => {
    expect(iso(value)).toBe(expected);
  });

  it.each(['', 'yesterday', '2030-1-31', '2030-02-30', '2029-02-29', '2030-13-01', '2030-01-31T24:00:00Z', '2030-01-31T10:61Z', '2030-01-31T10:00:00+25:00', '1735689600'])(
    '%j is refused',
    (value) => {
      expect(parseInstant(value)).toBeNull();
    },
  );
});

describe('export periods', () => {
  const fields = (start: string, end: string) => {
    try {
      parsePeriod(start, end);
    } catch (err) {
      expect((err as AppError).code).toBe('VALIDATION_ERROR');
      return ((err as AppError).data as { fields: { field: string; message: string }[] }).fields;
    }
    throw new Error('period accepted');
  };

  it('accepts a period of up to 366 days without a warning', () => {
    expect(parsePeriod('2030-01-01', '2031-01-02')).toEqual({ start: new Date('2030-01-01T00:00:00Z'), end: new Date('2031-01-02T00:00:00Z'), warnings: [] });
  });

  it('accepts a longer period whole and says so', () => {
    const period = parsePeriod('2020-01-01', '2031-01-02T00:00:01Z');
    expect(period.start).toEqual(new Date('2020-01-01T00:00:00Z'));
    expect(period.end).toEqual(new Date('2031-01-02T00:00:01Z'));
    expect(period.warnings).toEqual(['the period covers 4020 days, more than 366: it is exported whole, which takes longer to build']);
  });

  it('refuses an empty or reversed period, and names bad instants', () => {
    expect(fields('2030-01-01', '2030-01-01')).toEqual([{ field: 'end_at', message: 'must be after start_at' }]);
    expect(fields('2030-01-02', '2030-01-01')).toEqual([{ field: 'end_at', message: 'must be after start_at' }]);
    expect(fields('soon', 'later').map((f) => f.field)).toEqual(['start_at', 'end_at']);
  });
});
