/**
 * A channel's day and hours in its own time zone (through Intl, which carries the time zone database): caps count
 * per local day, and quiet hours are local times. Pure.
 */

const formats = new Map<string, Intl.DateTimeFormat>();
function formatOf(timeZone: string): Intl.DateTimeFormat {
  let f = formats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    formats.set(timeZone, f);
  }
  return f;
}

/** Whether Intl knows this time zone. */
export function isTimeZone(timeZone: string): boolean {
  try {
    formatOf(timeZone);
    return true;
  } catch {
    return false;
  }
}

export interface LocalTime {
  /** The local date, YYYY-MM-DD. */
  date: string;
  /** Seconds since local midnight. */
  second: number;
}

export function localTime(at: Date, timeZone: string): LocalTime {
  const parts = Object.fromEntries(formatOf(timeZone).formatToParts(at).map((p) => [p.type, p.value]));
  return { date: `${parts.year}-${parts.month}-${parts.day}`, second: Number(parts.hour) * 3600 + Number(parts.minute) * 60 + Number(parts.second) };
}

const DAY_S = 86_400;

/** The moment `at` plus `seconds`, corrected once for a change of offset (daylight saving) on the way. */
function localAfter(at: Date, timeZone: string, seconds: number, wantSecond: number): Date {
  const base = at.getTime() - (at.getTime() % 1000);
  const guess = new Date(base + seconds * 1000);
  const off = localTime(guess, timeZone).second - wantSecond;
  if (off === 0) return guess;
  // Off by the change of offset: move back (or on) by it, the shorter way round the clock.
  const shift = Math.abs(off) > DAY_S / 2 ? off - Math.sign(off) * DAY_S : off;
  return new Date(guess.getTime() - shift * 1000);
}

/** The next local midnight after `at`: when a channel's day, and its counts, begin again. */
export function nextDayStart(at: Date, timeZone: string): Date {
  const { second } = localTime(at, timeZone);
  return localAfter(at, timeZone, DAY_S - second, 0);
}

/** Which day after linking `at` is: 1 on the local date the number was linked, 2 the next, … */
export function dayNumber(linkedAt: Date, at: Date, timeZone: string): number {
  const days = (d: string) => Date.UTC(Number(d.slice(0, 4)), Number(d.slice(5, 7)) - 1, Number(d.slice(8, 10))) / (DAY_S * 1000);
  return Math.max(1, days(localTime(at, timeZone).date) - days(localTime(linkedAt, timeZone).date) + 1);
}

const secondOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 3600 + Number(hhmm.slice(3, 5)) * 60;

/** A valid "HH:MM" (00:00 to 23:59). */
export const isClockTime = (s: string) => /^([01]\d|2[0-3]):[0-5]\d$/.test(s);

/**
 * When the quiet hours `from`–`to` (local, possibly across midnight) that `at` falls in end; null when `at` is
 * outside them. Equal bounds mean no quiet hours.
 */
export function quietUntil(at: Date, timeZone: string, quiet: { from: string; to: string }): Date | null {
  const from = secondOf(quiet.from);
  const to = secondOf(quiet.to);
  if (from === to) return null;
  const { second } = localTime(at, timeZone);
  const inside = from < to ? second >= from && second < to : second >= from || second < to;
  if (!inside) return null;
  return localAfter(at, timeZone, (to - second + DAY_S) % DAY_S, to);
}
