/**
 * Realtime: a customer writes through the sandbox API, and the time until a connected socket.io client of a
 * global chat frame receives the `message.add` is measured, one message at a time. The gateway runs in its
 * own process; this process is the client. Baseline in the same run: a bare node:http + socket.io server
 * (bench/lib/bare-realtime.ts) that pushes an event for every POST, measured the same way.
 *
 *   npm run bench:realtime                                   # PGlite
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:realtime
 *   BENCH_MESSAGES=200 BENCH_RUNS=3 npm run bench:realtime
 */
import { performance } from 'node:perf_hooks';
import { io } from 'socket.io-client';
import { realtimePath } from '../src/contract/realtime.ts';
import { frameClient } from '../src/server/testing/frame-client.ts';
import { startChildServer } from './lib/child.ts';
import { benchChatId, startBenchGateway } from './lib/gateway-process.ts';
import { callOrThrow } from './lib/calls.ts';
import { databaseName, median, percentile, reportRows, type BenchRow } from './lib/report.ts';

const count = Number(process.env.BENCH_MESSAGES ?? 1000);
const runs = Number(process.env.BENCH_RUNS ?? 3);
const warmup = Math.min(50, Math.floor(count / 10));
const databaseUrl = process.env.DATABASE_URL || undefined;

type Roundtrip = (i: number) => Promise<number>;

/** Latencies of `count` messages after `warmup`, sent one after the other. */
async function measure(roundtrip: Roundtrip): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < count + warmup; i++) {
    const ms = await roundtrip(i);
    if (i >= warmup) latencies.push(ms);
  }
  return latencies;
}

/** Resolves when `id` has arrived (or at once if it already did); measures against `started`. */
function arrivalsTracker() {
  const arrived = new Map<string, number>();
  const waiting = new Map<string, () => void>();
  return {
    arrive(id: string) {
      arrived.set(id, performance.now());
      waiting.get(id)?.();
    },
    async until(id: string): Promise<number> {
      if (!arrived.has(id)) {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`event for ${id} not received in 30 s`)), 30_000);
          waiting.set(id, () => {
            clearTimeout(timer);
            resolve();
          });
        });
        waiting.delete(id);
      }
      return arrived.get(id)!;
    },
  };
}

async function post(url: string, headers: Record<string, string>, body: unknown): Promise<string> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  if (res.status !== 201) throw new Error(`POST ${url}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: { message_id: string } }).data.message_id;
}

async function gatewayRun(): Promise<number[]> {
  // The interface's limit is 500 requests per 5 s per token: the sandbox calls rotate over a few tokens.
  const bench = await startBenchGateway({ tokens: 4 });
  const token = bench.tokens[0]!;
  try {
    const link = await callOrThrow<{ url: string }>(bench.baseURL, 'POST', '/v2/iframe-links/chats', token, { user: { id: 'bench' }, scope: 'global' });
    const session = await callOrThrow<{ token: string }>(bench.baseURL, 'POST', '/bff/session', '', { link: new URL(link.url).searchParams.get('link') });
    const client = frameClient(bench.baseURL, session.token);
    await client.connect();
    const arrivals = arrivalsTracker();
    client.socket.on('event', (event) => {
      if (event.name === 'message.add') arrivals.arrive(event.payload.message_id);
    });
    const latencies = await measure(async (i) => {
      const started = performance.now();
      const auth = { authorization: `Bearer ${bench.tokens[i % bench.tokens.length]}` };
      const id = await post(`${bench.baseURL}/v2/sandbox/channels/${bench.channelId}/inbound`, auth, { chat_type: 'whatsapp', chat_id: benchChatId(i % 50), text: `message ${i}` });
      return (await arrivals.until(id)) - started;
    });
    client.close();
    return latencies;
  } finally {
    await bench.cleanup();
  }
}

async function baselineRun(): Promise<number[]> {
  const bare = await startChildServer(new URL('./lib/bare-realtime.ts', import.meta.url));
  const socket = io(bare.url, { path: realtimePath, transports: ['websocket'] });
  try {
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const arrivals = arrivalsTracker();
    socket.on('event', (event: { payload: { message_id: string } }) => arrivals.arrive(event.payload.message_id));
    return await measure(async (i) => {
      const started = performance.now();
      const id = await post(`${bare.url}/inbound`, {}, { text: `message ${i}` });
      return (await arrivals.until(id)) - started;
    });
  } finally {
    socket.close();
    await bare.stop();
  }
}

const ours = { p50: [] as number[], p95: [] as number[], p99: [] as number[] };
const bare = { p50: [] as number[], p95: [] as number[], p99: [] as number[] };
const database = databaseName(databaseUrl);
console.log(`realtime: sandbox inbound → socket.io event, ${count} messages (+${warmup} warm-up) × ${runs} runs, ${database}, Node ${process.version}`);
for (let run = 1; run <= runs; run++) {
  for (const [into, latencies] of [
    [ours, await gatewayRun()],
    [bare, await baselineRun()],
  ] as const) {
    into.p50.push(percentile(latencies, 0.5));
    into.p95.push(percentile(latencies, 0.95));
    into.p99.push(percentile(latencies, 0.99));
  }
  console.log(`  run ${run}: gateway p50 ${ours.p50.at(-1)!.toFixed(1)} / p95 ${ours.p95.at(-1)!.toFixed(1)} ms; bare p50 ${bare.p50.at(-1)!.toFixed(1)} / p95 ${bare.p95.at(-1)!.toFixed(1)} ms`);
}
const row = (metric: string, q: 'p50' | 'p95', budget: number | null): BenchRow => ({
  row: 'realtime',
  metric,
  unit: 'ms',
  database,
  ours: median(ours[q]),
  baseline: median(bare[q]),
  baselineName: 'bare node:http + socket.io, no database',
  ratio: median(ours[q]) / median(bare[q]),
  budget: budget === null ? null : `≤ ${budget} ms`,
  met: budget === null ? null : median(ours[q]) <= budget,
  runs,
  details: { messages: count, p99: Number(median(ours.p99).toFixed(2)), baseline_p99: Number(median(bare.p99).toFixed(2)) },
});
const rows = [row('inbound → socket event, p50', 'p50', null), row('inbound → socket event, p95', 'p95', 100)];
for (const r of rows) console.log(`${r.metric}: ${r.ours.toFixed(1)} ms against ${r.baseline!.toFixed(1)} ms bare (×${r.ratio!.toFixed(2)})`);
await reportRows(rows);
