import type { ChannelRecord } from '../channels/ports.ts';
import type { Clock, Store } from '../ports.ts';
import { TransientSendError, type ClaimedSend, type SendOutcome } from '../messages/ports.ts';
import { localTime } from './calendar.ts';
import { decide, slowedDown } from './gate.ts';
import type { PacingState, SendKind, SlowReason } from './ports.ts';
import { effectiveProfile, isPaced, type PacingProfile } from './profile.ts';
import type { Random } from './random.ts';

/** What pacing made of one claimed send: it goes now (after `typingMs` of "typing…"), it was held, or it waited too long. */
export type Admission = { kind: 'send'; typingMs: number } | { kind: 'held' } | { kind: 'held_too_long' };

export interface PacingDeps {
  store: Pick<Store, 'pacing'>;
  clock: Clock;
  random: Random;
  /** A channel slowed down on the platform's signal (logged by the caller). */
  slowed?(channelId: string, reason: SlowReason, until: Date): void;
}

/** A paced channel's stored state, or a fresh one (linked when the channel was made). */
export async function stateOf(deps: Pick<PacingDeps, 'store' | 'clock'>, channel: ChannelRecord): Promise<PacingState> {
  const stored = await deps.store.pacing.get(channel.id);
  if (stored) return stored;
  return {
    channelId: channel.id,
    overrides: null,
    linkedAt: channel.createdAt,
    day: localTime(deps.clock.now(), 'UTC').date,
    sentToday: 0,
    firstContactsToday: 0,
    nextSendAt: null,
    burst: 0,
    gapMs: 0,
    slowUntil: null,
    slowReason: null,
    version: 0,
  };
}

const profileOf = (state: PacingState): PacingProfile => effectiveProfile(state.overrides);

/**
 * Decides for one claimed send through a personal channel: it goes now, counted in the channel's day, or it is put back
 * until the gap, the day's cap or the quiet hours let it go (with the channel's other sends the same reason holds).
 * The decision is written with the version it was read at: of two senders deciding at once (a takeover), the second
 * finds the state changed and decides again.
 */
export async function admit(deps: PacingDeps, claim: ClaimedSend, channel: ChannelRecord, known?: SendKind): Promise<Admission> {
  if (!isPaced(channel.transport)) return { kind: 'send', typingMs: 0 };
  const kind = known ?? (await deps.store.pacing.kindOf(claim.chat.id));
  for (let tries = 0; tries < 5; tries++) {
    const now = deps.clock.now();
    const state = await stateOf(deps, channel);
    const profile = profileOf(state);
    const decision = decide(profile, state, { kind, textLength: claim.message.text?.length ?? 0 }, now, deps.random);
    if (decision.kind === 'send') {
      if (await deps.store.pacing.save(decision.next, state.version === 0 ? undefined : state.version)) return { kind: 'send', typingMs: decision.typingMs };
      continue;
    }
    const maxHoldMs = profile.maxHoldHours * 3_600_000;
    if (decision.until.getTime() - claim.message.createdAt.getTime() > maxHoldMs && now.getTime() - claim.message.createdAt.getTime() >= maxHoldMs) {
      return { kind: 'held_too_long' };
    }
    await deps.store.pacing.hold({ channelId: channel.id, messageId: claim.message.id, scope: decision.scope, until: decision.until, reason: decision.reason, now, maxHoldMs });
    return { kind: 'held' };
  }
  // Others kept changing the state: this send waits for its next turn.
  await deps.store.pacing.hold({ channelId: channel.id, messageId: claim.message.id, scope: 'one', until: deps.clock.now(), reason: 'gap', now: deps.clock.now(), maxHoldMs: Number.MAX_SAFE_INTEGER });
  return { kind: 'held' };
}

/** The platform said the account sends too fast or looks like spam: the channel slows down (stored, so every process does). */
export async function signalled(deps: PacingDeps, channel: ChannelRecord, reason: SlowReason, retryAfterMs: number | null): Promise<void> {
  if (!isPaced(channel.transport)) return;
  for (let tries = 0; tries < 5; tries++) {
    const state = await stateOf(deps, channel);
    const next = slowedDown(state, reason, deps.clock.now(), retryAfterMs);
    if (await deps.store.pacing.save(next, state.version === 0 ? undefined : state.version)) {
      deps.slowed?.(channel.id, reason, next.slowUntil!);
      return;
    }
  }
}

/** What the send path needs for pacing: the randomness of the gaps, and who hears of a slowdown. */
export interface PacingOptions {
  random: Random;
  slowed?(channelId: string, reason: SlowReason, until: Date): void;
}

/** The pacing of one batch of sends, as the send path uses it. */
export interface PacedTurns {
  /** Waits for the channel's earlier sends in this batch to be decided, then decides this one (see `admit`). */
  admit(claim: ClaimedSend, channel: ChannelRecord): Promise<Admission>;
  /** The messenger answered: a refusal as spam (WhatsApp's 463, Telegram's PEER_FLOOD) slows the channel down. */
  answered(channel: ChannelRecord, outcome: SendOutcome): Promise<void>;
  /** The send failed: a rate limit (WhatsApp's 429, Telegram's FLOOD_WAIT: a wait the messenger named) slows it down. */
  failed(channel: ChannelRecord, err: unknown): Promise<void>;
}

const sendAnyway: PacedTurns = { admit: async () => ({ kind: 'send', typingMs: 0 }), answered: async () => {}, failed: async () => {} };

/**
 * Pacing for one batch of claimed sends. The claim hands over at most one send per paced channel besides replies, so a
 * channel's sends in a batch are few; they are decided one after another, replies first (a customer who wrote never
 * waits behind a campaign), then in the order accepted.
 */
export function pacedTurns(deps: { store: Pick<Store, 'pacing'>; clock: Clock; pacing?: PacingOptions }, claims: ClaimedSend[]): PacedTurns {
  if (!deps.pacing) return sendAnyway;
  const pacing: PacingDeps = { store: deps.store, clock: deps.clock, ...deps.pacing };
  /** Decides every send of the channel in the batch (those the send path hands over: accepted, with a request), in turn. */
  const decideChannel = async (channel: ChannelRecord): Promise<Map<string, Admission>> => {
    const mine = claims.filter((c) => c.channel?.id === channel.id && c.message.status === 'accepted' && c.message.requestId);
    const kinds = await Promise.all(mine.map((c) => (isPaced(channel.transport) ? deps.store.pacing.kindOf(c.chat.id) : Promise.resolve<SendKind>('reply'))));
    // Stable: replies first, each group in the batch's order (the order accepted).
    const ordered = mine.map((claim, i) => ({ claim, kind: kinds[i]! })).sort((a, b) => Number(b.kind === 'reply') - Number(a.kind === 'reply'));
    const decided = new Map<string, Admission>();
    for (const { claim, kind } of ordered) decided.set(claim.message.id, await admit(pacing, claim, channel, kind));
    return decided;
  };
  const channels = new Map<string, Promise<Map<string, Admission>>>();
  return {
    async admit(claim, channel) {
      let decided = channels.get(channel.id);
      if (!decided) channels.set(channel.id, (decided = decideChannel(channel)));
      return (await decided).get(claim.message.id) ?? admit(pacing, claim, channel);
    },
    async answered(channel, outcome) {
      // A slowdown that could not be written is not worth failing the send over; the next signal tries again.
      if (outcome.kind === 'failed' && outcome.reason === 'is_spam') await signalled(pacing, channel, 'flagged', null).catch(() => {});
    },
    async failed(channel, err) {
      if (err instanceof TransientSendError && err.retryAfterMs !== null) await signalled(pacing, channel, 'rate_limited', err.retryAfterMs).catch(() => {});
    },
  };
}
