import { MAX_EXPORT_DAYS } from '../../../contract/exports.ts';
import type { FieldError } from '../../../contract/errors.ts';
import { validationError } from '../errors.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

// A date, or a date and time (seconds and fraction optional) with an optional offset.
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

/**
 * An ISO 8601 instant: `2030-01-31` (midnight UTC), `2030-01-31T10:00:00Z`, `…+03:00`, `…T10:00` (UTC when no
 * offset is given). Impossible dates (February 30th) are refused rather than rolled over. null: not one.
 */
export function parseInstant(value: string): Date | null {
  const m = ISO.exec(value.trim());
  if (!m) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0', fraction = '', zone] = m;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  const local = Date.UTC(year, month - 1, day, hour, minute, second, Number(fraction.padEnd(3, '0').slice(0, 3)));
  if (new Date(local).getUTCDate() !== day) return null;
  let offsetMinutes = 0;
  if (zone && zone.toUpperCase() !== 'Z') {
    const digits = zone.slice(1).replace(':', '');
    const [oh, om] = [Number(digits.slice(0, 2)), Number(digits.slice(2) || '0')];
    if (oh > 23 || om > 59) return null;
    offsetMinutes = (zone.startsWith('-') ? -1 : 1) * (oh * 60 + om);
  }
  return new Date(local - offsetMinutes * 60_000);
}

/**
 * The export period [start, end): both instants valid, end after start. A period longer than MAX_EXPORT_DAYS is
 * accepted whole, with a warning for the answer: the file is written page by page, so its length costs time, not
 * memory, and a CRM that asks for its whole history on a first sync would otherwise retry the refusal for ever.
 */
export function parsePeriod(startAt: string, endAt: string): { start: Date; end: Date; warnings: string[] } {
  const start = parseInstant(startAt);
  const end = parseInstant(endAt);
  const problems: FieldError[] = [];
  const format = 'must be an ISO 8601 date or date-time, e.g. 2030-01-31T00:00:00Z';
  if (!start) problems.push({ field: 'start_at', message: format });
  if (!end) problems.push({ field: 'end_at', message: format });
  if (start && end && end.getTime() <= start.getTime()) problems.push({ field: 'end_at', message: 'must be after start_at' });
  if (problems.length > 0 || !start || !end) throw validationError(problems);
  const days = (end.getTime() - start.getTime()) / DAY_MS;
  const warnings =
    days > MAX_EXPORT_DAYS
      ? [`the period covers ${Math.ceil(days)} days, more than ${MAX_EXPORT_DAYS}: it is exported whole, which takes longer to build`]
      : [];
  return { start, end, warnings };
}
