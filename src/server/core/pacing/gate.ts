import { dayNumber, localTime, nextDayStart, quietUntil } from './calendar.ts';
import type { HoldReason, HoldScope, PacingState, SendKind } from './ports.ts';
import { capOfDay, typingMs, type PacingProfile } from './profile.ts';
import { drawMs, type Random } from './random.ts';

/** How much longer the gaps are while the platform's rate limit or spam flag is recent. */
export const SLOW_FACTOR = 3;

export type Decision =
  | { kind: 'send'; typingMs: number; next: PacingState; firstContact: boolean }
  | { kind: 'hold'; until: Date; reason: HoldReason; scope: HoldScope };

/** The state as of `now`: a new local day starts its counts at zero. */
export function rolled(state: PacingState, profile: PacingProfile, now: Date): PacingState {
  const today = localTime(now, profile.timeZone).date;
  return state.day === today ? state : { ...state, day: today, sentToday: 0, firstContactsToday: 0 };
}

/** The day's caps of the channel as of `now`. */
export function capsOf(state: PacingState, profile: PacingProfile, now: Date): { daily: number; firstContacts: number } {
  const day = dayNumber(state.linkedAt, now, profile.timeZone);
  return { daily: capOfDay(profile.dailyCaps, day, profile.warmUp), firstContacts: capOfDay(profile.firstContactCaps, day, profile.warmUp) };
}

/**
 * Whether a send of `kind` may go now through a channel in `state`, and if not, until when it waits and which of the
 * channel's other waiting sends wait with it (they would be refused for the same reason). Replies never wait for
 * the first-contact cap or the quiet hours; every send waits for the gap and the daily cap. Pure: the randomness
 * comes in.
 */
export function decide(profile: PacingProfile, stored: PacingState, send: { kind: SendKind; textLength: number }, now: Date, random: Random): Decision {
  const state = rolled(stored, profile, now);
  const cold = send.kind !== 'reply';
  if (!profile.enabled) return { kind: 'send', typingMs: 0, firstContact: send.kind === 'first_contact', next: counted(state, send.kind, now, 0, 0) };
  const slowed = state.slowUntil !== null && state.slowUntil > now;
  // A flagged number writes to nobody new until the flag is old: only answers go.
  if (slowed && state.slowReason === 'flagged' && cold) return { kind: 'hold', until: state.slowUntil!, reason: 'slowed_down', scope: 'cold' };
  if (state.nextSendAt && state.nextSendAt > now) return { kind: 'hold', until: state.nextSendAt, reason: slowed ? 'slowed_down' : 'gap', scope: 'one' };
  const quiet = cold && profile.quietHours ? quietUntil(now, profile.timeZone, profile.quietHours) : null;
  if (quiet) return { kind: 'hold', until: quiet, reason: 'quiet_hours', scope: 'cold' };
  const caps = capsOf(state, profile, now);
  if (state.sentToday >= caps.daily) return { kind: 'hold', until: nextDayStart(now, profile.timeZone), reason: 'daily_cap', scope: 'all' };
  if (send.kind === 'first_contact' && state.firstContactsToday >= caps.firstContacts) {
    return { kind: 'hold', until: nextDayStart(now, profile.timeZone), reason: 'first_contact_cap', scope: 'first_contacts' };
  }
  const typing = typingMs(profile, send.textLength);
  const burstDone = state.burst + 1 >= profile.burstSize;
  const gap = drawMs(random, burstDone ? profile.burstPauseSeconds : profile.gapSeconds) * (slowed ? SLOW_FACTOR : 1);
  const next = counted(state, send.kind, now, typing, gap);
  return { kind: 'send', typingMs: typing, firstContact: send.kind === 'first_contact', next: { ...next, burst: burstDone ? 0 : state.burst + 1 } };
}

function counted(state: PacingState, kind: SendKind, now: Date, typing: number, gap: number): PacingState {
  return {
    ...state,
    sentToday: state.sentToday + 1,
    firstContactsToday: state.firstContactsToday + (kind === 'first_contact' ? 1 : 0),
    nextSendAt: new Date(now.getTime() + typing + gap),
    gapMs: gap,
  };
}

/** How long the platform's signals slow a channel down, and how long its sends pause at once. */
export const SLOWDOWNS: Record<'rate_limited' | 'flagged', { slowMs: number; pauseMs: number }> = {
  // 429 / FLOOD_WAIT: the platform counts too many calls; it says how long to wait, at least a minute here.
  rate_limited: { slowMs: 60 * 60_000, pauseMs: 60_000 },
  // 463 / PEER_FLOOD: the account is reported or scored as spam: no new chats for a day, and a long pause.
  flagged: { slowMs: 24 * 60 * 60_000, pauseMs: 15 * 60_000 },
};

/** The state after the platform signalled `reason` (asking to wait `retryAfterMs`, when it said). */
export function slowedDown(state: PacingState, reason: 'rate_limited' | 'flagged', now: Date, retryAfterMs: number | null): PacingState {
  const { slowMs, pauseMs } = SLOWDOWNS[reason];
  const pauseUntil = now.getTime() + Math.max(pauseMs, retryAfterMs ?? 0);
  const slowUntil = Math.max(now.getTime() + slowMs, state.slowUntil?.getTime() ?? 0);
  // A flag outweighs a rate limit for as long as it lasts.
  const keepFlag = state.slowReason === 'flagged' && state.slowUntil !== null && state.slowUntil > now;
  return {
    ...state,
    nextSendAt: new Date(Math.max(pauseUntil, state.nextSendAt?.getTime() ?? 0)),
    slowUntil: new Date(slowUntil),
    slowReason: keepFlag ? 'flagged' : reason,
  };
}
