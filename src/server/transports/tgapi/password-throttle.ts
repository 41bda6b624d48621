import { LRUCache } from 'lru-cache';
import { AppError } from '../../core/errors.ts';
import type { Clock } from '../../core/ports.ts';

/** Wrong two-factor passwords a channel may give in a row before its password step is closed for a while. */
export const WRONG_PASSWORDS_ALLOWED = 5;
/** How long the password step stays closed after the last wrong password allowed. */
export const PASSWORD_PAUSE_SECONDS = 15 * 60;
/** Channels whose count is kept (a channel's count older than its pause is worth nothing anyway). */
const CHANNELS_KEPT = 10_000;

/** A step refused for now (a closed password step, a wait Telegram asked for): 429 with the seconds left in `retry_after`. */
export const retryLater = (retryAfter: number, why: string): AppError =>
  new AppError('TOO_MANY_REQUESTS', `${why}; try again in ${retryAfter} s`, { retry_after: retryAfter });

/**
 * Wrong two-factor passwords counted per channel, so that guesses are not forwarded to Telegram without end (it
 * answers too many with a long FLOOD_WAIT, which would lock the account's owner out as well). The count is kept by the
 * process that runs the channel's login, the only one that takes its password step. A right password clears it; a
 * wait Telegram asks for (FLOOD_WAIT) closes the step for as long.
 */
export function passwordThrottle(clock: () => Clock) {
  const channels = new LRUCache<string, { wrong: number; closedUntil: number }>({ max: CHANNELS_KEPT });
  const now = () => clock().now().getTime();
  return {
    /** Seconds until the channel's next password may be tried; 0 when it may now. */
    retryAfter(channelId: string): number {
      const closedUntil = channels.get(channelId)?.closedUntil ?? 0;
      return Math.max(0, Math.ceil((closedUntil - now()) / 1000));
    },
    wrong(channelId: string): void {
      const entry = channels.get(channelId) ?? { wrong: 0, closedUntil: 0 };
      entry.wrong += 1;
      if (entry.wrong >= WRONG_PASSWORDS_ALLOWED) {
        entry.wrong = 0;
        entry.closedUntil = now() + PASSWORD_PAUSE_SECONDS * 1000;
      }
      channels.set(channelId, entry);
    },
    /** Telegram asked to wait `seconds` before the next try. */
    hold(channelId: string, seconds: number): void {
      const entry = channels.get(channelId) ?? { wrong: 0, closedUntil: 0 };
      entry.closedUntil = Math.max(entry.closedUntil, now() + seconds * 1000);
      channels.set(channelId, entry);
    },
    right(channelId: string): void {
      channels.delete(channelId);
    },
  };
}
