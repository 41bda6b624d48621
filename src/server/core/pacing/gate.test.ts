import { describe, expect, it } from 'vitest';
import { dayNumber, nextDayStart, quietUntil } from './calendar.ts';
import { decide, slowedDown } from './gate.ts';
import type { PacingState } from './ports.ts';
import { capOfDay, defaultPacingProfile, effectiveProfile, typingMs } from './profile.ts';
import { seededRandom } from './random.ts';

const linked = new Date(Date.UTC(2030, 2, 1, 10));
const state = (over: Partial<PacingState> = {}): PacingState => ({
  channelId: 'c',
  overrides: null,
  linkedAt: linked,
  day: '2030-03-01',
  sentToday: 0,
  firstContactsToday: 0,
  nextSendAt: null,
  burst: 0,
  gapMs: 0,
  slowUntil: null,
  slowReason: null,
  version: 1,
  ...over,
});

describe('a channel’s day in its time zone', () => {
  it('counts days from the local date of linking, and starts the next at local midnight, daylight saving included', () => {
    expect(dayNumber(linked, new Date(Date.UTC(2030, 2, 1, 23, 59)), 'UTC')).toBe(1);
    expect(dayNumber(linked, new Date(Date.UTC(2030, 2, 3, 0, 0)), 'UTC')).toBe(3);
    // 21:30 UTC is already the next day in Moscow (UTC+3).
    expect(dayNumber(linked, new Date(Date.UTC(2030, 2, 1, 21, 30)), 'Europe/Moscow')).toBe(2);
    expect(nextDayStart(new Date(Date.UTC(2030, 2, 1, 10)), 'Europe/Moscow').toISOString()).toBe('2030-03-01T21:00:00.000Z');
    // Berlin moves to summer time on 31 March 2030: the day after starts at 22:00 UTC, not 23:00.
    expect(nextDayStart(new Date(Date.UTC(2030, 2, 31, 12)), 'Europe/Berlin').toISOString()).toBe('2030-03-31T22:00:00.000Z');
  });

  it('tells the end of quiet hours across midnight, and nothing outside them', () => {
    const quiet = { from: '22:00', to: '08:00' };
    expect(quietUntil(new Date(Date.UTC(2030, 2, 1, 23)), 'UTC', quiet)?.toISOString()).toBe('2030-03-02T08:00:00.000Z');
    expect(quietUntil(new Date(Date.UTC(2030, 2, 1, 3)), 'UTC', quiet)?.toISOString()).toBe('2030-03-01T08:00:00.000Z');
    expect(quietUntil(new Date(Date.UTC(2030, 2, 1, 12)), 'UTC', quiet)).toBeNull();
    expect(quietUntil(new Date(Date.UTC(2030, 2, 1, 12)), 'UTC', { from: '09:00', to: '09:00' })).toBeNull();
  });
});

describe('the pacing decision', () => {
  const random = seededRandom(7);
  const at = (h: number) => new Date(Date.UTC(2030, 2, 1, h));

  it('raises the caps over the warm-up days and keeps the last step', () => {
    expect([1, 2, 6, 7, 40].map((d) => capOfDay(defaultPacingProfile.firstContactCaps, d, true))).toEqual([20, 30, 120, 150, 150]);
    expect(capOfDay(defaultPacingProfile.dailyCaps, 1, false)).toBe(1000);
  });

  it('holds a first contact over its cap until the next day, but lets a reply go', () => {
    const full = state({ firstContactsToday: 20, sentToday: 20 });
    expect(decide(defaultPacingProfile, full, { kind: 'first_contact', textLength: 5 }, at(12), random)).toMatchObject({
      kind: 'hold',
      reason: 'first_contact_cap',
      scope: 'first_contacts',
      until: new Date(Date.UTC(2030, 2, 2)),
    });
    expect(decide(defaultPacingProfile, full, { kind: 'reply', textLength: 5 }, at(12), random).kind).toBe('send');
    // A follow-up in a chat written to before is no new contact.
    expect(decide(defaultPacingProfile, full, { kind: 'follow_up', textLength: 5 }, at(12), random).kind).toBe('send');
  });

  it('holds every send over the daily cap, and starts counting afresh the next day', () => {
    const full = state({ sentToday: 200 });
    expect(decide(defaultPacingProfile, full, { kind: 'reply', textLength: 5 }, at(12), random)).toMatchObject({ kind: 'hold', reason: 'daily_cap', scope: 'all' });
    const next = decide(defaultPacingProfile, full, { kind: 'reply', textLength: 5 }, new Date(Date.UTC(2030, 2, 2, 9)), random);
    expect(next).toMatchObject({ kind: 'send', next: { day: '2030-03-02', sentToday: 1 } });
  });

  it('waits out the gap, and draws the next within bounds after the typing', () => {
    expect(decide(defaultPacingProfile, state({ nextSendAt: at(13) }), { kind: 'reply', textLength: 5 }, at(12), random)).toMatchObject({ kind: 'hold', reason: 'gap', until: at(13) });
    const sent = decide(defaultPacingProfile, state(), { kind: 'reply', textLength: 100 }, at(12), random);
    if (sent.kind !== 'send') throw new Error('held');
    expect(sent.typingMs).toBe(5_000);
    expect(sent.next.gapMs).toBeGreaterThanOrEqual(4_000);
    expect(sent.next.gapMs).toBeLessThanOrEqual(15_000);
    expect(sent.next.nextSendAt!.getTime() - at(12).getTime()).toBe(5_000 + sent.next.gapMs);
  });

  it('shows typing for a time growing with the text, within its bounds', () => {
    expect([0, 40, 100, 1000].map((n) => typingMs(defaultPacingProfile, n))).toEqual([1_000, 2_000, 5_000, 8_000]);
    expect(typingMs(effectiveProfile({ typing: null }), 100)).toBe(0);
  });

  it('writes to nobody new while flagged for spam, and slows every gap while rate-limited', () => {
    const flagged = slowedDown(state(), 'flagged', at(12), null);
    expect(flagged.slowUntil).toEqual(new Date(at(12).getTime() + 24 * 3_600_000));
    expect(decide(defaultPacingProfile, flagged, { kind: 'first_contact', textLength: 5 }, at(13), random)).toMatchObject({ kind: 'hold', reason: 'slowed_down', scope: 'cold' });
    const limited = slowedDown(state(), 'rate_limited', at(12), 300_000);
    expect(limited.nextSendAt).toEqual(new Date(at(12).getTime() + 300_000));
    const sent = decide(defaultPacingProfile, limited, { kind: 'reply', textLength: 5 }, new Date(at(12).getTime() + 300_000), random);
    if (sent.kind !== 'send') throw new Error('held');
    expect(sent.next.gapMs).toBeGreaterThanOrEqual(12_000);
  });
});
