import type { Transport } from '../../../contract/channels.ts';

/**
 * How a personal channel (a person's own WhatsApp or Telegram number) spaces its sends so that the platform does not
 * take it for a spam robot. Stored per channel as overrides of the defaults below; the API names are the same words
 * in snake_case (see docs/whatsapp-personal.md, "Pacing").
 */
export interface PacingProfile {
  /** Off: the channel sends as fast as the queue hands sends over (an old, trusted number, at its owner's risk). */
  enabled: boolean;
  /** IANA time zone the channel's day and quiet hours are counted in. */
  timeZone: string;
  /** Whether the daily caps rise over the first days after linking; off: the last step applies from day one. */
  warmUp: boolean;
  /** Outgoing messages per day (every send), for day 1, 2, … after linking; the last applies from then on. */
  dailyCaps: number[];
  /** First contacts per day (chats where nobody wrote before: not the customer, not the channel), likewise. */
  firstContactCaps: number[];
  /** A random pause between two sends, drawn between these bounds (seconds). */
  gapSeconds: { min: number; max: number };
  /** After this many sends with only short gaps, one long pause drawn between `burstPauseSeconds`. */
  burstSize: number;
  burstPauseSeconds: { min: number; max: number };
  /** Local times ("HH:MM") between which sends to chats where the customer never wrote wait; null: none. */
  quietHours: { from: string; to: string } | null;
  /** "typing…" shown before a send, for `msPerChar` of its text, between `minMs` and `maxMs`; null: none. */
  typing: { msPerChar: number; minMs: number; maxMs: number } | null;
  /** A send held longer than this (hours since it was accepted) fails with `held_too_long` instead of waiting on. */
  maxHoldHours: number;
}

/** The transports that are a person's own account, and pace their sends. */
export const pacedTransports: readonly Transport[] = ['whatsapp', 'tgapi'];
export const isPaced = (transport: Transport) => pacedTransports.includes(transport);

/**
 * Defaults for a number linked today. The caps follow what owners of banned numbers report: a new number that sends
 * hundreds of first messages on its first day is banned within hours, while one that starts with a few dozen
 * conversations a day and doubles over a week is not. Replies to customers who wrote are cheap for the platform's
 * spam scoring (the customer started it), so only the overall cap holds them.
 */
export const defaultPacingProfile: PacingProfile = {
  enabled: true,
  timeZone: 'UTC',
  warmUp: true,
  dailyCaps: [200, 300, 450, 600, 800, 1000],
  firstContactCaps: [20, 30, 45, 65, 90, 120, 150],
  gapSeconds: { min: 4, max: 15 },
  burstSize: 8,
  burstPauseSeconds: { min: 60, max: 180 },
  quietHours: null,
  typing: { msPerChar: 50, minMs: 1_000, maxMs: 8_000 },
  maxHoldHours: 72,
};

/** The cap of day `day` (1 = the day the number was linked) from a schedule; without warm-up, the last step. */
export function capOfDay(schedule: number[], day: number, warmUp: boolean): number {
  if (schedule.length === 0) return Number.POSITIVE_INFINITY;
  if (!warmUp) return schedule.at(-1)!;
  return schedule[Math.min(Math.max(day, 1), schedule.length) - 1]!;
}

/** A stored override (partial) applied over the defaults. */
export function effectiveProfile(overrides: Partial<PacingProfile> | null | undefined): PacingProfile {
  return { ...defaultPacingProfile, ...(overrides ?? {}) };
}

/** How long "typing…" shows before a text of `length` characters (0 when the profile shows none). */
export function typingMs(profile: PacingProfile, length: number): number {
  if (!profile.enabled || !profile.typing) return 0;
  const { msPerChar, minMs, maxMs } = profile.typing;
  return Math.round(Math.min(maxMs, Math.max(minMs, length * msPerChar)));
}
