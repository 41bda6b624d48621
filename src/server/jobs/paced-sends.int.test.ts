import { sql } from 'kysely';
import { Registry } from 'prom-client';
import { pacingGauges } from '../metrics-pacing.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TransientSendError } from '../core/messages/ports.ts';
import type { PacingProfile } from '../core/pacing/profile.ts';
import { migrateToLatest, openDatabase, type Database } from '../storage/database.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { acceptSend, pacedChannel, pacedDeps, recordingDriver, runUntil, type TakenSend } from '../testing/paced-channel.ts';
import { createTestDatabase, databaseKind, type TestDatabase } from '../testing/test-database.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Day 1 of the number, 09:00 UTC. */
const linked = Date.UTC(2030, 0, 7, 9);
const small: Partial<PacingProfile> = { dailyCaps: [5, 8], firstContactCaps: [3, 4], gapSeconds: { min: 4, max: 10 }, burstSize: 3, burstPauseSeconds: { min: 60, max: 90 } };

describe(`pacing of a personal channel's sends (${databaseKind()})`, () => {
  let testDb: TestDatabase;
  let database: Database;
  let second: Database;
  beforeAll(async () => {
    testDb = await createTestDatabase();
    database = await openDatabase(testDb.target);
    await migrateToLatest(database.db);
    // A second process: its own connection pool on PostgreSQL; the embedded database has only the one.
    second = testDb.target.kind === 'postgres' ? await openDatabase(testDb.target) : database;
  });
  afterAll(async () => {
    if (second !== database) await second.close();
    await database.close();
    await testDb.drop();
  });

  async function setUp(overrides: Partial<PacingProfile> = small) {
    // Each test's channel alone has sends waiting.
    await database.db.deleteFrom('messages').execute();
    const clock = new ManualClock(linked);
    const taken: TakenSend[] = [];
    const deps = pacedDeps(database.db, clock, recordingDriver(clock, taken));
    const ids = await pacedChannel(database.db, 'whatsapp', new Date(linked));
    await deps.store.pacing.setOverrides(ids.channelId, overrides, new Date(linked));
    return { clock, taken, deps, ids };
  }
  const held = (messageId: string) =>
    database.db.selectFrom('messages').select(['status', 'hold_reason', 'send_after', 'reason']).where('id', '=', messageId).executeTakeFirstOrThrow();

  it('warms up: day 1 sends up to its first-contact cap, in the order accepted, and the rest go the next days; replies are not held by that cap', async () => {
    const { clock, taken, deps, ids } = await setUp({ ...small, dailyCaps: [9, 12] });
    const contacts: string[] = [];
    for (let i = 0; i < 10; i++) contacts.push(await acceptSend(deps, ids, `7900000${String(i).padStart(4, '0')}`, `offer ${i}`));
    for (let i = 0; i < 4; i++) await acceptSend(deps, ids, `7911000${i}`, `answer ${i}`, true);
    await runUntil(deps, database.db, clock, linked + 6 * HOUR);
    const day1 = taken.map((t) => t.text);
    // Three first contacts (the cap of day 1), in the order accepted; every answer goes, the first-contact cap notwithstanding.
    expect(day1.filter((t) => t.startsWith('offer'))).toEqual(['offer 0', 'offer 1', 'offer 2']);
    expect(day1.filter((t) => t.startsWith('answer'))).toEqual(['answer 0', 'answer 1', 'answer 2', 'answer 3']);
    const waiting = await held(contacts[3]!);
    expect(waiting).toMatchObject({ status: 'accepted', hold_reason: 'first_contact_cap' });
    // Held until the channel's next day (midnight UTC), not failed.
    expect(new Date(waiting.send_after!).getTime()).toBe(Date.UTC(2030, 0, 8));
    // The day's cap of every send (9) holds answers too: two of four more go, two wait for the next day.
    for (let i = 4; i < 8; i++) await acceptSend(deps, ids, `7911000${i}`, `answer ${i}`, true);
    await runUntil(deps, database.db, clock, linked + 12 * HOUR);
    expect(taken.map((t) => t.text).slice(7)).toEqual(['answer 4', 'answer 5']);
    expect(await database.db.selectFrom('messages').select('hold_reason').where('text', '=', 'answer 7').executeTakeFirstOrThrow()).toEqual({ hold_reason: 'daily_cap' });
    await runUntil(deps, database.db, clock, linked + DAY + 12 * HOUR);
    const day2 = taken.slice(9).map((t) => t.text);
    // Day 2: the answers held over first, then the day's four first contacts, in the order accepted.
    expect(day2.filter((t) => t.startsWith('answer'))).toEqual(['answer 6', 'answer 7']);
    expect(day2.filter((t) => t.startsWith('offer'))).toEqual(['offer 3', 'offer 4', 'offer 5', 'offer 6']);
  });

  it('spaces sends by a random gap within bounds after the typing, and pauses longer after a burst', async () => {
    const { clock, taken, deps, ids } = await setUp({ ...small, dailyCaps: [50], firstContactCaps: [50] });
    for (let i = 0; i < 7; i++) await acceptSend(deps, ids, `7922000${i}`, 'x'.repeat(40), true);
    await runUntil(deps, database.db, clock, linked + HOUR);
    expect(taken).toHaveLength(7);
    // 40 characters at 50 ms each: 2 s of typing before each send.
    expect(taken.every((t) => t.typingMs === 2_000)).toBe(true);
    const gaps = taken.slice(1).map((t, i) => t.at - taken[i]!.at - 2_000);
    // Bursts of three: short gaps, then a long pause.
    gaps.forEach((gap, i) => {
      const [min, max] = (i + 1) % 3 === 0 ? [60_000, 90_000] : [4_000, 10_000];
      expect(gap).toBeGreaterThanOrEqual(min);
      expect(gap).toBeLessThanOrEqual(max + 1_000);
    });
  });

  it('holds first contacts through quiet hours in the channel’s time zone, but not replies', async () => {
    // 22:00–08:00 in Moscow (UTC+3); the clock is at 23:00 there.
    const { clock, taken, deps, ids } = await setUp({ ...small, timeZone: 'Europe/Moscow', quietHours: { from: '22:00', to: '08:00' } });
    clock.set(Date.UTC(2030, 0, 7, 20));
    const offer = await acceptSend(deps, ids, '79330001', 'offer');
    await acceptSend(deps, ids, '79330002', 'answer', true);
    await runUntil(deps, database.db, clock, Date.UTC(2030, 0, 7, 21));
    expect(taken.map((t) => t.text)).toEqual(['answer']);
    expect(await held(offer)).toMatchObject({ hold_reason: 'quiet_hours' });
    await runUntil(deps, database.db, clock, Date.UTC(2030, 0, 8, 6));
    expect(taken.map((t) => t.text)).toEqual(['answer', 'offer']);
    expect(taken[1]!.at).toBe(Date.UTC(2030, 0, 8, 5));
  });

  it('keeps the day’s counts in the database: a restarted process, and another that takes the channel over, go on from them', async () => {
    const { clock, taken, deps, ids } = await setUp();
    for (let i = 0; i < 3; i++) await acceptSend(deps, ids, `7944000${i}`, `offer ${i}`);
    await runUntil(deps, database.db, clock, linked + HOUR, async () => {
      if (taken.length === 2) throw new Error('restart');
    }).catch((err: Error) => expect(err.message).toBe('restart'));
    expect(taken).toHaveLength(2);
    // The other process, on its own connection and with its own randomness, sends the rest of day 1's first contacts.
    const later: TakenSend[] = [];
    const other = pacedDeps(second.db, clock, recordingDriver(clock, later), 2, null);
    for (let i = 3; i < 6; i++) await acceptSend(other, ids, `7944000${i}`, `offer ${i}`);
    await runUntil(other, second.db, clock, linked + 12 * HOUR);
    expect(later.map((t) => t.text)).toEqual(['offer 2']);
    const state = await other.store.pacing.get(ids.channelId);
    expect(state).toMatchObject({ sentToday: 3, firstContactsToday: 3 });
  });

  it('fails a send held past the profile’s limit with its own reason', async () => {
    const { clock, taken, deps, ids } = await setUp({ ...small, firstContactCaps: [1], maxHoldHours: 10 });
    await acceptSend(deps, ids, '79550001', 'first');
    const late = await acceptSend(deps, ids, '79550002', 'second');
    await runUntil(deps, database.db, clock, linked + DAY);
    expect(taken.map((t) => t.text)).toEqual(['first']);
    expect(await held(late)).toMatchObject({ status: 'failed', reason: 'held_too_long' });
  });

  it('slows the channel down when the platform rate-limits it, and keeps it slow for the hour', async () => {
    const clock = new ManualClock(linked);
    const taken: TakenSend[] = [];
    let refuse = true;
    const recording = recordingDriver(clock, taken);
    const driver = {
      ...recording,
      async send(m: Parameters<typeof recording.send>[0]) {
        if (refuse) {
          refuse = false;
          throw new TransientSendError('FLOOD_WAIT_120', 120_000);
        }
        return recording.send(m);
      },
    };
    await database.db.deleteFrom('messages').execute();
    const deps = pacedDeps(database.db, clock, driver);
    const ids = await pacedChannel(database.db, 'tgapi', new Date(linked));
    await deps.store.pacing.setOverrides(ids.channelId, { ...small, burstSize: 100 }, new Date(linked));
    for (let i = 0; i < 3; i++) await acceptSend(deps, ids, `7966000${i}`, 'hi', true);
    await runUntil(deps, database.db, clock, linked + HOUR);
    const state = await deps.store.pacing.get(ids.channelId);
    expect(state).toMatchObject({ slowReason: 'rate_limited' });
    expect(taken).toHaveLength(3);
    // Nothing went before the wait Telegram named, and the gaps after are three times the profile's (12–30 s).
    expect(taken[0]!.at).toBeGreaterThanOrEqual(linked + 120_000);
    const gaps = taken.slice(1).map((t, i) => t.at - taken[i]!.at - 1_000);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(12_000);
  });

  it('tells a channel’s queue: how many wait and how many are held', async () => {
    const { clock, deps, ids } = await setUp({ ...small, firstContactCaps: [0] });
    for (let i = 0; i < 3; i++) await acceptSend(deps, ids, `7977000${i}`, 'offer');
    await runUntil(deps, database.db, clock, linked + HOUR);
    expect(await deps.store.pacing.queue(ids.channelId, clock.now())).toEqual({ waiting: 3, held: 3 });
    const held = await deps.store.pacing.heldSends(ids.channelId, clock.now(), 100);
    expect(held.map((h) => h.reason)).toEqual(['first_contact_cap', 'first_contact_cap', 'first_contact_cap']);
    expect(held.every((h) => h.until.getTime() === Date.UTC(2030, 0, 8))).toBe(true);
    const rows = await sql<{ n: number }>`select count(*)::int as n from messages where channel_id = ${ids.channelId} and hold_reason = 'first_contact_cap'`.execute(database.db);
    expect(rows.rows[0]!.n).toBe(3);
  });

  it('reports each channel’s sent today, first contacts today, held now and current gap to /metrics', async () => {
    const { clock, taken, deps, ids } = await setUp();
    for (let i = 0; i < 5; i++) await acceptSend(deps, ids, `7988000${i}`, `offer ${i}`);
    await acceptSend(deps, ids, '79881111', 'answer', true);
    await runUntil(deps, database.db, clock, linked + HOUR);
    expect(taken).toHaveLength(4);
    const registry = new Registry();
    pacingGauges([registry], clock, () => deps.store.pacing.figures(clock.now()));
    const text = await registry.metrics();
    const value = (name: string) => Number(new RegExp(`^${name}\\{channel_id="${ids.channelId}",transport="whatsapp"\\} (\\S+)$`, 'm').exec(text)?.[1]);
    expect(value('gateway_pacing_sent_today')).toBe(4);
    expect(value('gateway_pacing_first_contacts_today')).toBe(3);
    expect(value('gateway_pacing_held')).toBe(2);
    const state = await deps.store.pacing.get(ids.channelId);
    expect(value('gateway_pacing_gap_seconds')).toBe(state!.gapMs / 1000);
    // The next day starts its counts at zero.
    clock.set(linked + 24 * HOUR);
    const tomorrow = await registry.metrics();
    expect(tomorrow).toMatch(new RegExp(`gateway_pacing_sent_today\\{channel_id="${ids.channelId}",transport="whatsapp"\\} 0`));
  });
});
