import type { Tier } from '../../../contract/channels.ts';

/**
 * How Meta names a number's messaging limit (how many customers the business may start conversations with in 24
 * hours), as the interface's tiers. Documented: `messaging_limit_tier` of a phone number and `current_limit` of
 * `phone_number_quality_update` take TIER_50, TIER_250, TIER_1K, TIER_10K, TIER_100K and TIER_UNLIMITED, the names
 * the interface has; TIER_2K (named in Meta's later figures) has no tier of the interface's and is read as the one
 * below it, never promising more than Meta allows. A number Meta has not placed yet (TIER_NOT_SET, or nothing) has no
 * tier: null, and the channel keeps what it had.
 */
export function tierOf(raw: unknown): Tier | null {
  if (typeof raw !== 'string') return null;
  const name = raw.toUpperCase();
  const same: readonly Tier[] = ['TIER_0', 'TIER_50', 'TIER_250', 'TIER_1K', 'TIER_10K', 'TIER_100K', 'TIER_UNLIMITED'];
  if ((same as readonly string[]).includes(name)) return name as Tier;
  if (name === 'TIER_2K') return 'TIER_1K';
  return null;
}

/** A number as Meta writes it for people (`+1 555-010-0001`), as the interface's phones are: digits only. */
export const phoneDigits = (display: unknown): string | null => {
  if (typeof display !== 'string') return null;
  const digits = display.replace(/\D/g, '');
  return digits.length >= 7 && digits.length <= 15 ? digits : null;
};
