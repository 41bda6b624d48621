/**
 * When to try a failed delivery again (docs/decisions.md): the first attempt goes at once, then 5 s, 5 min, 30 min,
 * 2 h, 5 h, 10 h and 10 h after the previous one, each stretched or shrunk by up to 20% so that receivers
 * coming back from an outage are not hit by every retry at the same moment.
 */
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Delay before attempt n+1 after n failed attempts (n ≥ 1); its length is the number of retries. */
export const retryDelaysMs = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR] as const;

export const maxAttempts = retryDelaysMs.length + 1;

/** A subscription whose attempts have failed for this long without a success in between is disabled. */
export const disableAfterFailingMs = 5 * 24 * HOUR;

/** Retry-After beyond this is read as this. */
const MAX_RETRY_AFTER_MS = 24 * HOUR;

const JITTER = 0.2;

/** `Retry-After` as milliseconds from `now`: delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: Date): number | null {
  if (!value) return null;
  const text = value.trim();
  let ms: number;
  if (/^\d+$/.test(text)) ms = Number(text) * SECOND;
  else {
    // HTTP dates end in GMT; anything else (a negative or fractional number) is unreadable.
    if (!/GMT$/.test(text)) return null;
    const at = Date.parse(text);
    if (Number.isNaN(at)) return null;
    ms = at - now.getTime();
  }
  return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}

/**
 * When the next attempt is due after `attemptsMade` failed attempts, or null when every retry is used.
 * A `Retry-After` (429, 503) is honoured: the next attempt never comes sooner than the receiver asked.
 */
export function nextAttemptAt(attemptsMade: number, now: Date, random: () => number, retryAfterMs: number | null = null): Date | null {
  if (attemptsMade >= maxAttempts) return null;
  const base = retryDelaysMs[attemptsMade - 1] ?? retryDelaysMs[0];
  const jittered = Math.round(base * (1 - JITTER + 2 * JITTER * random()));
  return new Date(now.getTime() + Math.max(jittered, retryAfterMs ?? 0));
}
