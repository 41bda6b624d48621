/**
 * Scaling out: accepted sends per second and webhook deliveries per second with 1, 2 and 3 gateway processes on
 * one PostgreSQL and one Redis, and the CPU each costs per message (all gateway processes together, PostgreSQL's
 * server, the load generator). Every process takes its share of the requests (one autocannon per process, the
 * connections split between them) and every process has the workers role. Each run uses a new database; the
 * sends' `sent` and `delivered` statuses go to a receiver in a process of its own, so each accepted message
 * makes two deliveries. A run's rate counts its load and the drain that followed, until every message was sent
 * and every delivery made.
 *
 * Two cores cannot show a speed-up: the processes share them with PostgreSQL and the load. What this shows is
 * whether adding processes costs CPU per message (contention: claims that collide, locks waited on, wake-ups
 * that find nothing), and that the work spreads over the processes.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test REDIS_URL=redis://127.0.0.1:6379 npm run bench:scaling
 *   BENCH_RUNS=3 BENCH_SECONDS=8 BENCH_PROCESSES=1,2,3 npm run bench:scaling
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { callJson, spawnGateway, type SpawnedGateway } from '../src/server/testing/spawned-gateway.ts';
import { startChildServer } from './lib/child.ts';
import { medianByPart, microsEach, startCpuMeter, type CpuEach } from './lib/cpu-time.ts';
import { freshPostgres } from './lib/fresh-postgres.ts';
import { median, reportRows, type BenchRow } from './lib/report.ts';
import { sendRequests } from './lib/send-requests.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 24);
const CHATS = Number(process.env.BENCH_CHATS ?? 100);
const TOKENS = Number(process.env.BENCH_TOKENS ?? 120);
const PROCESSES = (process.env.BENCH_PROCESSES ?? '1,2,3').split(',').map(Number);

interface Run {
  accepted: number;
  acceptedPerSecond: number;
  deliveriesPerSecond: number;
  /** CPU µs per accepted-and-sent message (with its two deliveries). */
  cpu: CpuEach;
  /** How the accepted messages were spread over the processes (share of the busiest). */
  busiestShare: number;
}

async function oneRun(processes: number, databaseUrl: string, redisUrl: string): Promise<Run> {
  const database = await freshPostgres(databaseUrl);
  const dirs: string[] = [];
  const gateways: SpawnedGateway[] = [];
  const receiver = await startChildServer(new URL('./lib/status-receiver.ts', import.meta.url));
  const counter = new pg.Client({ connectionString: database.url });
  try {
    const shared = { PARTNER_API_KEY: randomBytes(24).toString('base64url'), SECRET_KEY: randomBytes(32).toString('base64url'), REDIS_URL: redisUrl, LOG_LEVEL: 'warn' };
    for (let i = 0; i < processes; i++) {
      const dataDir = await mkdtemp(join(tmpdir(), 'gw-scaling-'));
      dirs.push(dataDir);
      gateways.push(await spawnGateway({ dataDir, databaseUrl: database.url, partnerKey: shared.PARTNER_API_KEY, env: shared }));
    }
    const first = gateways[0]!;
    const accountId = (await callJson<{ account_id: string }>(first.baseURL, 'POST', '/v2/accounts', first.partnerKey, { name: 'Scaling' })).data.account_id;
    const tokens: string[] = [];
    for (let i = 0; i < TOKENS; i++) tokens.push((await callJson<{ token: string }>(first.baseURL, 'POST', `/v2/accounts/${accountId}/tokens`, first.partnerKey, { kind: 'client' })).data.token);
    await callJson(first.baseURL, 'POST', '/v2/webhooks', tokens[0]!, { data: [{ url: receiver.url, event: 'message.status_update' }] });
    const channelId = (await callJson<{ channel_id: string }[]>(first.baseURL, 'POST', '/v2/channels', tokens[0]!, { transport: 'whatsapp', credentials: {} })).data[0]!.channel_id;
    await callJson(first.baseURL, 'POST', `/v2/sandbox/channels/${channelId}/scan`, tokens[0]!, {});
    for (let i = 0; (await callJson<{ status: string }[]>(first.baseURL, 'GET', `/v2/channels/${channelId}`, tokens[0]!)).data[0]?.status !== 'active'; i++) {
      if (i > 200) throw new Error('the bench channel did not become active');
      await new Promise((r) => setTimeout(r, 50));
    }
    await counter.connect();
    const remaining = async () =>
      (
        await counter.query<{ unsent: number; undelivered: number }>(
          `select (select count(*)::int from messages where status = 'accepted') as unsent,
                  (select count(*)::int from webhook_deliveries where status in ('pending', 'sending')) as undelivered`,
        )
      ).rows[0]!;

    const parts = Object.fromEntries(gateways.map((g, i) => [`gateway${i + 1}`, g.child.pid!]));
    const meter = await startCpuMeter({ ...parts, postgres: 'postgres' as const, autocannon: 'self' as const });
    const started = performance.now();
    // Each process gets its own tokens, so its share of the rate limit does not depend on the others.
    const results = await Promise.all(
      gateways.map((g, i) =>
        autocannon({
          url: `${g.baseURL}/v2/messages`,
          connections: Math.max(1, Math.round(CONNECTIONS / processes)),
          duration: SECONDS,
          method: 'POST',
          requests: sendRequests(channelId, tokens.filter((_, t) => t % processes === i), CHATS, `scaling ${i}`),
        }),
      ),
    );
    for (let left = await remaining(); left.unsent + left.undelivered > 0; left = await remaining()) {
      if (performance.now() - started > (SECONDS + 120) * 1000) throw new Error(`not drained: ${JSON.stringify(left)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const seconds = (performance.now() - started) / 1000;
    const used = await meter.stop();
    const accepted = results.reduce((n, r) => n + r['2xx'], 0);
    const deliveries = (await counter.query<{ n: number }>(`select count(*)::int as n from webhook_deliveries where status = 'delivered'`)).rows[0]!.n;
    const gatewayCpu = Object.keys(parts).reduce((s, k) => s + ((used as Record<string, number | null>)[k] ?? 0), 0);
    return {
      accepted,
      acceptedPerSecond: accepted / seconds,
      deliveriesPerSecond: deliveries / seconds,
      cpu: microsEach({ gateways: gatewayCpu, postgres: used.postgres, autocannon: used.autocannon }, accepted),
      busiestShare: Math.max(...results.map((r) => r['2xx'])) / Math.max(1, accepted),
    };
  } finally {
    await counter.end().catch(() => {});
    await Promise.all(gateways.map((g) => g.stop().catch(() => g.kill())));
    await receiver.stop();
    await database.drop();
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  }
}

const databaseUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;
if (!databaseUrl || !redisUrl) {
  console.log('bench:scaling needs DATABASE_URL (PostgreSQL) and REDIS_URL: several processes share one database and one Redis');
  process.exit(0);
}

const rows: BenchRow[] = [];
const byCount = new Map<number, Run[]>(PROCESSES.map((n) => [n, []]));
// Alternating: one run of each process count per round, so a slower moment of the machine hits them alike.
for (let round = 0; round < RUNS; round++) {
  for (const n of PROCESSES) {
    const run = await oneRun(n, databaseUrl, redisUrl);
    byCount.get(n)!.push(run);
    console.log(
      `${n} process(es), round ${round + 1}: ${run.acceptedPerSecond.toFixed(0)} sends/s, ${run.deliveriesPerSecond.toFixed(0)} deliveries/s, ` +
        `CPU µs/message ${JSON.stringify(run.cpu)}, busiest process took ${(run.busiestShare * 100).toFixed(0)}%`,
    );
  }
}
const single = median(byCount.get(PROCESSES[0]!)!.map((r) => (r.cpu.gateways ?? 0) + (r.cpu.postgres ?? 0)));
for (const [n, runs] of byCount) {
  const cpu = medianByPart(runs.map((r) => r.cpu));
  const total = (cpu.gateways ?? 0) + (cpu.postgres ?? 0);
  rows.push({
    row: 'scaling',
    metric: `${n} process${n === 1 ? '' : 'es'}: accepted and sent messages/s (webhook deliveries/s and CPU per message beside)`,
    unit: 'messages/s',
    database: 'PostgreSQL',
    ours: median(runs.map((r) => r.acceptedPerSecond)),
    baseline: single,
    baselineName: `gateway + PostgreSQL CPU µs per message with ${PROCESSES[0]} process`,
    // CPU per message against one process's: 1 means adding processes costs nothing per message.
    ratio: total / single,
    budget: null,
    met: null,
    runs: runs.length,
    details: {
      deliveriesPerSecond: Math.round(median(runs.map((r) => r.deliveriesPerSecond))),
      gatewayCpuMicros: Math.round(cpu.gateways ?? 0),
      postgresCpuMicros: Math.round(cpu.postgres ?? 0),
      autocannonCpuMicros: Math.round(cpu.autocannon ?? 0),
      busiestProcessShare: Number(median(runs.map((r) => r.busiestShare)).toFixed(2)),
    },
  });
}
await reportRows(rows);
