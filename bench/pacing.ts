/**
 * A 1,000-message campaign to new contacts from a WhatsApp number linked today, with the default pacing profile, on a
 * simulated clock (no real waiting): how many messages go out on day 1, how they are spaced (gaps, bursts), how many
 * days the whole campaign takes, and whether replies to customers who wrote in meanwhile wait for the campaign.
 *
 *   BENCH_ONLY=pacing npm run bench, or on its own: node bench/pacing.ts (DATABASE_URL: on PostgreSQL; else in-memory PGlite)
 */
import { sql } from 'kysely';
import { migrateToLatest, openDatabase } from '../src/server/storage/database.ts';
import { ManualClock } from '../src/server/testing/manual-clock.ts';
import { acceptSend, pacedChannel, pacedDeps, recordingDriver, runUntil, type TakenSend } from '../src/server/testing/paced-channel.ts';
import { databaseName, median, percentile, reportRows, type BenchRow } from './lib/report.ts';

const CAMPAIGN = Number(process.env.PACING_CAMPAIGN ?? 1_000);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Linked today at 09:00 UTC; the campaign is accepted at once, at 09:05. */
const linked = Date.UTC(2030, 0, 7, 9);
const start = linked + 5 * 60_000;
/** Customers write in, and are answered: three while the campaign's first sends go out, then every 20 minutes to 18:30. */
const replyTimes = [6, 8, 10, ...Array.from({ length: 28 }, (_, i) => 30 + i * 20)].map((minutes) => linked + minutes * 60_000);

const database = await openDatabase(process.env.DATABASE_URL ? { kind: 'postgres', url: process.env.DATABASE_URL } : { kind: 'pglite', dataDir: null });
await migrateToLatest(database.db);
const clock = new ManualClock(start);
const taken: TakenSend[] = [];
const deps = pacedDeps(database.db, clock, recordingDriver(clock, taken), 42);
const ids = await pacedChannel(database.db, 'whatsapp', new Date(linked));
const began = performance.now();
for (let i = 0; i < CAMPAIGN; i++) await acceptSend(deps, ids, `7900${String(i).padStart(7, '0')}`, `Hello! Our spring offer, number ${i}: twenty per cent off everything this week.`);

const accepted = new Map<string, number>();
let nextReply = 0;
const acceptReplies = async () => {
  while (nextReply < replyTimes.length && replyTimes[nextReply]! <= clock.now().getTime()) {
    const text = `answer ${nextReply}`;
    await acceptSend(deps, ids, `7911${String(nextReply).padStart(7, '0')}`, text, true);
    accepted.set(text, clock.now().getTime());
    nextReply++;
  }
};
const dayEnd = Date.UTC(2030, 0, 8);
await runUntil(deps, database.db, clock, dayEnd, acceptReplies, () => replyTimes[nextReply] ?? null);
const day1 = taken.filter((t) => t.at < dayEnd);
const campaignDay1 = day1.filter((t) => !t.text.startsWith('answer'));
const replies = day1.filter((t) => t.text.startsWith('answer'));
const replyDelays = replies.map((t) => (t.at - accepted.get(t.text)!) / 1000);
// The spacing of every send while the campaign's day-1 sends went out (replies among them).
const busy = day1.filter((t) => t.at <= campaignDay1.at(-1)!.at);
const gaps = busy.slice(1).map((t, i) => (t.at - busy[i]!.at) / 1000);
// The rest of the campaign, day by day, until all of it is out (or a month has passed).
const waiting = async () =>
  Number((await sql<{ n: string }>`select count(*) as n from messages where channel_id = ${ids.channelId} and status = 'accepted'`.execute(database.db)).rows[0]!.n);
let days = 1;
while (days < 30 && (await waiting()) > 0) await runUntil(deps, database.db, clock, dayEnd + days++ * DAY);
// Each day's campaign sends by their time (a send at midnight is the new day's).
const perDay = Array.from({ length: days }, (_, d) => taken.filter((t) => !t.text.startsWith('answer') && t.at >= dayEnd + (d - 1) * DAY && t.at < dayEnd + d * DAY).length);
const heldTooLong = Number(
  (await sql<{ n: string }>`select count(*) as n from messages where channel_id = ${ids.channelId} and reason = 'held_too_long'`.execute(database.db)).rows[0]!.n,
);
const wallSeconds = (performance.now() - began) / 1000;

const summary = {
  'campaign sent on day 1': campaignDay1.length,
  'replies on day 1': `${replies.length} of ${replyTimes.length}`,
  'reply delay max (s)': Math.max(...replyDelays),
  'reply delay median (s)': median(replyDelays),
  'gap median (s)': median(gaps),
  'gap min (s)': Math.min(...gaps),
  'gap p95 (s)': percentile(gaps, 0.95),
  'gap max (s)': Math.max(...gaps),
  'pauses over 60 s (after bursts)': gaps.filter((g) => g >= 60).length,
  'first campaign send': new Date(campaignDay1[0]!.at).toISOString(),
  'last campaign send of day 1': new Date(campaignDay1.at(-1)!.at).toISOString(),
  'campaign per day (days 1…)': perDay.join(', '),
  'campaign sent in all': taken.filter((t) => !t.text.startsWith('answer')).length,
  'campaign failed held_too_long (held past 72 h)': heldTooLong,
  'wall time (s)': Math.round(wallSeconds * 10) / 10,
};
console.log(`pacing, ${databaseName(process.env.DATABASE_URL)}:`);
for (const [k, v] of Object.entries(summary)) console.log(`  ${k}: ${v}`);

const row: BenchRow = {
  row: 'pacing',
  metric: 'campaign messages to new contacts sent on day 1 (number linked today, default profile)',
  unit: 'messages',
  database: databaseName(process.env.DATABASE_URL),
  ours: campaignDay1.length,
  baseline: null,
  baselineName: null,
  ratio: null,
  budget: '≤ day-1 first-contact cap (20); replies not delayed',
  met: campaignDay1.length <= 20 && replies.length === replyTimes.length && Math.max(...replyDelays) <= 60,
  runs: 1,
  details: summary,
};
await reportRows([row]);
await database.close();
