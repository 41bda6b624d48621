/**
 * Accept throughput: `POST /v2/messages` requests/s and p50/p99 latency under autocannon (in this process),
 * against the gateway in a process of its own (sandbox transport, an active whatsapp channel, sends spread over
 * BENCH_CHATS chats, so the send worker is sending while requests are accepted) and against a bare Fastify route
 * answering the same envelope, in a third process. Alternating runs of each; medians and the ratio to the bare route.
 * "Sustained" means the sends kept up: on PostgreSQL each run waits, after its load, until every accepted message
 * has been sent, and the row's rate counts that wait (accepted ÷ (load time + drain)). On PGlite the database
 * belongs to the gateway's process, so the messages still unsent when the gateway stops are reported instead.
 *
 *   node bench/accept.ts                                   # embedded PGlite in a temporary directory
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node bench/accept.ts
 *   BENCH_RUNS=5 BENCH_SECONDS=10 BENCH_CONNECTIONS=32 BENCH_CHATS=100 node bench/accept.ts
 */
import autocannon from 'autocannon';
import { startChildServer } from './lib/child.ts';
import { medianByPart, microsEach, startCpuMeter, type CpuEach } from './lib/cpu-time.ts';
import { startBenchGateway } from './lib/gateway-process.ts';
import { sendRequests } from './lib/send-requests.ts';
import { databaseName, median, reportRows, type BenchRow } from './lib/report.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const CHATS = Number(process.env.BENCH_CHATS ?? 100);
// The rate limit allows 100 requests/s per token; enough tokens that it never answers 429 here.
const TOKENS = Number(process.env.BENCH_TOKENS ?? 120);

interface Run {
  /** Accepted per second of load. */
  rps: number;
  /** Accepted per second of load and of the drain that followed (the sends' own pace, when they fell behind). */
  sustained: number;
  drainMs: number;
  p50: number;
  p99: number;
  failures: number;
  /** CPU microseconds per answered request: the server's process, PostgreSQL's (ours, where it runs on this machine), autocannon's. */
  cpu: CpuEach;
}

/** Counts the messages still waiting to be sent, where the bench can read the gateway's database while it runs. */
type Backlog = () => Promise<number>;

/** Waits until nothing waits to be sent (at most a minute); answers how long that took, in milliseconds. */
async function drain(backlog: Backlog | null): Promise<number> {
  if (!backlog) return 0;
  const started = performance.now();
  while ((await backlog()) > 0 && performance.now() - started < 60_000) await new Promise((r) => setTimeout(r, 20));
  return performance.now() - started;
}

/** `server` is the pid of the process answering; `postgres` adds the PostgreSQL server's CPU to the split. */
async function load(
  url: string,
  channelId: string,
  tokens: string[],
  seconds: number,
  server: { pid: number; postgres: boolean },
  backlog: Backlog | null = null,
): Promise<Run> {
  const meter = await startCpuMeter({ server: server.pid, autocannon: 'self', ...(server.postgres ? { postgres: 'postgres' as const } : {}) });
  const result = await autocannon({
    url: `${url}/v2/messages`,
    connections: CONNECTIONS,
    duration: seconds,
    method: 'POST',
    requests: sendRequests(channelId, tokens, CHATS),
  });
  const drainMs = await drain(backlog);
  const used = await meter.stop();
  const ok = result['2xx'];
  return {
    rps: ok / result.duration,
    sustained: ok / (result.duration + drainMs / 1000),
    drainMs,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
    cpu: microsEach(used, ok),
  };
}

const fmt = (r: Run) => `${r.rps.toFixed(0).padStart(6)} req/s${r.drainMs > 0 ? ` (all sent ${r.drainMs.toFixed(0)} ms later: ${r.sustained.toFixed(0)} req/s sustained)` : ''}  p50 ${r.p50.toFixed(1).padStart(5)} ms  p99 ${r.p99.toFixed(1).padStart(6)} ms${r.failures ? `  (${r.failures} failed)` : ''}`;

async function main() {
  const database = databaseName(process.env.DATABASE_URL);
  const bare = await startChildServer(new URL('./lib/bare-server.ts', import.meta.url));
  const gateway = await startBenchGateway({ tokens: TOKENS });
  try {
    console.log(`accept benchmark: ${RUNS} runs × ${SECONDS} s, ${CONNECTIONS} connections, ${CHATS} chats, ${database}, Node ${process.version}`);
    const bareServer = { pid: bare.child.pid!, postgres: false };
    const ourServer = { pid: gateway.process.child.pid!, postgres: database === 'PostgreSQL' };
    const backlog: Backlog | null = gateway.target.kind === 'postgres' ? () => gateway.unsent() : null;
    await load(bare.url, gateway.channelId, gateway.tokens, 2, bareServer);
    await load(gateway.baseURL, gateway.channelId, gateway.tokens, 3, ourServer, backlog);
    const ours: Run[] = [];
    const base: Run[] = [];
    for (let run = 1; run <= RUNS; run++) {
      base.push(await load(bare.url, gateway.channelId, gateway.tokens, SECONDS, bareServer));
      ours.push(await load(gateway.baseURL, gateway.channelId, gateway.tokens, SECONDS, ourServer, backlog));
      console.log(`  run ${run}: gateway ${fmt(ours.at(-1)!)}   bare ${fmt(base.at(-1)!)}`);
    }
    const m = (runs: Run[], k: Exclude<keyof Run, 'cpu'>) => median(runs.map((r) => r[k]));
    const cpuOf = (runs: Run[]) => medianByPart(runs.map((r) => r.cpu));
    // What the row calls sustained: accepted per second until the last of them was sent (see the header).
    const rps = m(ours, 'sustained');
    const bareRps = m(base, 'rps');
    // On PGlite, what was still unsent when the load stopped, read once the gateway has let the database go.
    await gateway.stop();
    const unsent = backlog ? null : await gateway.unsent();
    const p99 = m(ours, 'p99');
    const budget = database === 'PGlite' ? 1000 : 4000;
    console.log(
      backlog
        ? `sends: every run's messages were all sent ${m(ours, 'drainMs').toFixed(0)} ms (median) after its load ended; accepted during load ${m(ours, 'rps').toFixed(0)} req/s`
        : `messages still unsent when the gateway stopped, right after the last run: ${unsent}`,
    );
    console.log(`medians: gateway ${rps.toFixed(0)} req/s p50 ${m(ours, 'p50').toFixed(1)} ms p99 ${p99.toFixed(1)} ms; ` +
      `bare ${bareRps.toFixed(0)} req/s p50 ${m(base, 'p50').toFixed(1)} ms p99 ${m(base, 'p99').toFixed(1)} ms; ratio ${(rps / bareRps).toFixed(3)}`);
    console.log(`CPU per request (µs): gateway ${JSON.stringify(cpuOf(ours))}; bare ${JSON.stringify(cpuOf(base))}`);
    console.log(`budget ≥ ${budget} req/s with p99 ≤ 50 ms: ${rps >= budget && p99 <= 50 ? 'met' : 'NOT met'}`);
    const row: BenchRow = {
      row: 'accept',
      metric: 'POST /v2/messages requests/s',
      unit: 'req/s',
      database,
      ours: Math.round(rps),
      baseline: Math.round(bareRps),
      baselineName: 'bare Fastify route, same envelope',
      ratio: rps / bareRps,
      budget: `≥ ${budget.toLocaleString('en')} req/s, p99 ≤ 50 ms`,
      met: rps >= budget && p99 <= 50,
      runs: RUNS,
      details: {
        p50_ms: m(ours, 'p50'),
        p99_ms: p99,
        bare_p50_ms: m(base, 'p50'),
        bare_p99_ms: m(base, 'p99'),
        connections: CONNECTIONS,
        chats: CHATS,
        seconds_per_run: SECONDS,
        failed_requests: ours.reduce((s, r) => s + r.failures, 0),
        ...(backlog ? { accepted_during_load_rps: Math.round(m(ours, 'rps')), drain_ms: Math.round(m(ours, 'drainMs')) } : { unsent_at_end: unsent ?? 0 }),
        // Where the CPU went, per answered request: on two shared cores this is what bounds the rate.
        ...Object.fromEntries(Object.entries(cpuOf(ours)).map(([part, us]) => [`${part === 'server' ? 'gateway' : part}_cpu_us_per_request`, us])),
        ...Object.fromEntries(Object.entries(cpuOf(base)).map(([part, us]) => [`bare_${part}_cpu_us_per_request`, us])),
      },
    };
    await reportRows([row]);
  } finally {
    await bare.stop();
    await gateway.stop().catch(() => {});
    await gateway.cleanup();
  }
}

await main();
