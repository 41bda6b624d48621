import type { PacingProfile } from './profile.ts';

/** Why a send waits (a message's `held_reason`). */
export const holdReasons = ['gap', 'daily_cap', 'first_contact_cap', 'quiet_hours', 'slowed_down'] as const;
export type HoldReason = (typeof holdReasons)[number];

/** What a send is to the platform: an answer in a chat where the customer wrote, the first message of a chat nobody wrote in, or another message there. */
export type SendKind = 'reply' | 'first_contact' | 'follow_up';

/** Which waiting sends of the channel a hold covers: this one; every send to a chat where the customer never wrote; every first contact; all. */
export type HoldScope = 'one' | 'cold' | 'first_contacts' | 'all';

/** Why a channel slowed down: the platform said it is rate-limited (`rate_limited`) or flagged it for spam (`flagged`). */
export type SlowReason = 'rate_limited' | 'flagged';

/** A channel's pacing as stored: its day's counts and when it may send next, shared by every process. */
export interface PacingState {
  channelId: string;
  /** Overrides of the default profile, as an admin set them (null: the defaults). */
  overrides: Partial<PacingProfile> | null;
  /** When the number was linked: day 1 of its warm-up. */
  linkedAt: Date;
  /** The local date the counts are of. */
  day: string;
  sentToday: number;
  firstContactsToday: number;
  /** Not before this: the gap after the last send (and its typing). */
  nextSendAt: Date | null;
  /** Sends since the last long pause. */
  burst: number;
  /** The gap drawn after the last send (ms). */
  gapMs: number;
  slowUntil: Date | null;
  slowReason: SlowReason | null;
  /** Bumped by every write: a write made from an older read is refused (another sender went first). */
  version: number;
}

/** The waiting sends of one channel, for the API and /metrics. */
export interface PacingQueue {
  waiting: number;
  held: number;
}

/** A paced channel's stored state with its transport and how many of its sends are held now (for /metrics). */
export interface PacingFigures {
  state: PacingState;
  transport: string;
  held: number;
}

export interface PacingRepository {
  get(channelId: string): Promise<PacingState | undefined>;
  /** Stores the state if its version is still `expected` (undefined: only if there is none yet); false otherwise. */
  save(state: PacingState, expected: number | undefined): Promise<boolean>;
  /** Sets the admin's overrides, creating the row (linked at `linkedAt`) if there is none. */
  setOverrides(channelId: string, overrides: Partial<PacingProfile> | null, linkedAt: Date): Promise<PacingState>;
  /**
   * Puts the claimed send `messageId` back until `until` (its claim not counted as a try), and, for a wider scope,
   * every other send of the channel that scope covers and that is due and not under way, each until `until` but no
   * later than its own `latest` (accepted + the longest hold). All are marked with `reason`.
   */
  hold(request: { channelId: string; messageId: string; scope: HoldScope; until: Date; reason: HoldReason; now: Date; maxHoldMs: number }): Promise<void>;
  /** What a send to this chat is (see SendKind). */
  kindOf(chatRef: string): Promise<SendKind>;
  queue(channelId: string, now: Date): Promise<PacingQueue>;
  /** The channel's sends held now, oldest first, at most `limit`: their request ids, why and until when. */
  heldSends(channelId: string, now: Date, limit: number): Promise<{ requestId: string; reason: HoldReason; until: Date }[]>;
  figures(now: Date): Promise<PacingFigures[]>;
}
