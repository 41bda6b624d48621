import type { ChannelPacingBody, PacingProfileBody } from '../../../contract/pacing.ts';
import { AppError, validationError } from '../errors.ts';
import { channelNotFound } from '../channels/channel-steps.ts';
import type { Clock, Store } from '../ports.ts';
import { dayNumber, isTimeZone } from './calendar.ts';
import { capsOf, rolled } from './gate.ts';
import { stateOf } from './paced-sends.ts';
import { effectiveProfile, isPaced, type PacingProfile } from './profile.ts';

interface Deps {
  store: Store;
  clock: Clock;
}

/** The profile in the API's words. */
export const toBody = (p: PacingProfile): PacingProfileBody => ({
  enabled: p.enabled,
  time_zone: p.timeZone,
  warm_up: p.warmUp,
  daily_caps: p.dailyCaps,
  first_contact_caps: p.firstContactCaps,
  gap_seconds: p.gapSeconds,
  burst_size: p.burstSize,
  burst_pause_seconds: p.burstPauseSeconds,
  quiet_hours: p.quietHours,
  typing: p.typing && { ms_per_char: p.typing.msPerChar, min_ms: p.typing.minMs, max_ms: p.typing.maxMs },
  max_hold_hours: p.maxHoldHours,
});

/** The API's words as stored overrides (only the fields given). */
function fromBody(b: Partial<PacingProfileBody>): Partial<PacingProfile> {
  const o: Partial<PacingProfile> = {};
  if (b.enabled !== undefined) o.enabled = b.enabled;
  if (b.time_zone !== undefined) o.timeZone = b.time_zone;
  if (b.warm_up !== undefined) o.warmUp = b.warm_up;
  if (b.daily_caps !== undefined) o.dailyCaps = b.daily_caps;
  if (b.first_contact_caps !== undefined) o.firstContactCaps = b.first_contact_caps;
  if (b.gap_seconds !== undefined) o.gapSeconds = b.gap_seconds;
  if (b.burst_size !== undefined) o.burstSize = b.burst_size;
  if (b.burst_pause_seconds !== undefined) o.burstPauseSeconds = b.burst_pause_seconds;
  if (b.quiet_hours !== undefined) o.quietHours = b.quiet_hours;
  if (b.typing !== undefined) o.typing = b.typing && { msPerChar: b.typing.ms_per_char, minMs: b.typing.min_ms, maxMs: b.typing.max_ms };
  if (b.max_hold_hours !== undefined) o.maxHoldHours = b.max_hold_hours;
  return o;
}

async function pacedChannel(deps: Deps, accountId: string, channelId: string) {
  const channel = await deps.store.channels.get(accountId, channelId);
  if (!channel) throw channelNotFound(channelId);
  if (!isPaced(channel.transport)) throw new AppError('VALIDATION_ERROR', `Only personal channels (whatsapp, tgapi) are paced; this one is ${channel.transport}`);
  return channel;
}

/** GET /v2/channels/{id}/pacing: the channel's profile and its queue and day now. */
export async function getPacing(deps: Deps, accountId: string, channelId: string): Promise<ChannelPacingBody> {
  const channel = await pacedChannel(deps, accountId, channelId);
  const now = deps.clock.now();
  const stored = await stateOf(deps, channel);
  const profile = effectiveProfile(stored.overrides);
  const state = rolled(stored, profile, now);
  const caps = capsOf(state, profile, now);
  const queue = await deps.store.pacing.queue(channel.id, now);
  const heldSends = queue.held > 0 ? await deps.store.pacing.heldSends(channel.id, now, 100) : [];
  const slowed = state.slowUntil && state.slowUntil > now && state.slowReason ? { reason: state.slowReason, until: state.slowUntil.toISOString() } : null;
  return {
    channel_id: channel.id,
    profile: toBody(profile),
    state: {
      day: dayNumber(state.linkedAt, now, profile.timeZone),
      sent_today: state.sentToday,
      first_contacts_today: state.firstContactsToday,
      daily_cap: Number.isFinite(caps.daily) ? caps.daily : -1,
      first_contact_cap: Number.isFinite(caps.firstContacts) ? caps.firstContacts : -1,
      queue_length: queue.waiting,
      held: queue.held,
      next_send_at: state.nextSendAt && state.nextSendAt > now ? state.nextSendAt.toISOString() : null,
      current_gap_seconds: state.gapMs / 1000,
      held_sends: heldSends.map((h) => ({ request_id: h.requestId, reason: h.reason, until: h.until.toISOString() })),
      slowed_down: slowed,
    },
    linked_at: state.linkedAt.toISOString(),
  };
}

/** PATCH /v2/channels/{id}/pacing: changes the fields given; the others keep their values. */
export async function updatePacing(deps: Deps, accountId: string, channelId: string, body: Partial<PacingProfileBody>): Promise<ChannelPacingBody> {
  const channel = await pacedChannel(deps, accountId, channelId);
  const current = await stateOf(deps, channel);
  const merged = { ...(current.overrides ?? {}), ...fromBody(body) };
  const profile = effectiveProfile(merged);
  const problems = [];
  if (!isTimeZone(profile.timeZone)) problems.push({ field: 'time_zone', message: 'is not a time zone Intl knows (an IANA name such as Europe/Moscow)' });
  if (profile.gapSeconds.min > profile.gapSeconds.max) problems.push({ field: 'gap_seconds', message: 'min is above max' });
  if (profile.burstPauseSeconds.min > profile.burstPauseSeconds.max) problems.push({ field: 'burst_pause_seconds', message: 'min is above max' });
  if (profile.typing && profile.typing.minMs > profile.typing.maxMs) problems.push({ field: 'typing', message: 'min_ms is above max_ms' });
  if (problems.length > 0) throw validationError(problems);
  await deps.store.pacing.setOverrides(channel.id, merged, current.linkedAt);
  return getPacing(deps, accountId, channelId);
}
