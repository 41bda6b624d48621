/**
 * Footprint: the gateway's resident memory when idle on PGlite (as `npm start` runs it, after setup and a
 * settling pause), and its growth per 1,000 connected frame sockets (each its own session, as frames are).
 * Baseline in the same run: a bare node:http + socket.io process (bench/lib/bare-realtime.ts), idle and with
 * the same 1,000 sockets. The gateway and the baseline run in processes of their own; this one holds the sockets.
 * Every reading follows a full garbage collection (through the gateway's inspector, the baseline's --expose-gc).
 *
 *   npm run bench:footprint                  # BENCH_SOCKETS=1000 BENCH_RUNS=3
 */
import { io, type Socket } from 'socket.io-client';
import { realtimePath } from '../src/contract/realtime.ts';
import { freePort } from '../src/server/testing/free-port.ts';
import { startChildServer } from './lib/child.ts';
import { inspectorOf } from './lib/inspector.ts';
import { startBenchGateway } from './lib/gateway-process.ts';
import { callOrThrow, rssOf } from './lib/calls.ts';
import { median, reportRows, type BenchRow } from './lib/report.ts';

const sockets = Number(process.env.BENCH_SOCKETS ?? 1000);
const runs = Number(process.env.BENCH_RUNS ?? 3);
const SETTLE_MS = 3_000;
const mb = (bytes: number) => bytes / 1024 / 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Median of five samples a few hundred milliseconds apart (each after a full collection when `collect` is given), after a pause for start-up work to settle. */
async function settledRss(sample: () => Promise<number>, collect?: () => Promise<void>): Promise<number> {
  await sleep(SETTLE_MS);
  const samples: number[] = [];
  for (let i = 0; i < 5; i++) {
    await collect?.();
    samples.push(await sample());
    await sleep(200);
  }
  return median(samples);
}

async function connectAll(make: (i: number) => Promise<Socket>): Promise<Socket[]> {
  const open: Socket[] = [];
  // In groups of 50: a connection storm is not what is measured.
  for (let from = 0; from < sockets; from += 50) {
    const group = Array.from({ length: Math.min(50, sockets - from) }, (_, k) => make(from + k));
    for (const socket of await Promise.all(group)) {
      if (!socket.connected) await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });
      open.push(socket);
    }
  }
  return open;
}

async function gatewayRun(): Promise<{ idle: number; perThousand: number }> {
  // Links per token are rate limited (500 per 5 s): spread them over a few client tokens.
  const inspectPort = await freePort();
  const bench = await startBenchGateway({ tokens: Math.ceil(sockets / 400), env: { NODE_OPTIONS: `--inspect=127.0.0.1:${inspectPort}` } });
  const inspector = await inspectorOf(inspectPort);
  try {
    const pid = bench.process.child.pid!;
    const idle = await settledRss(() => rssOf(pid), inspector.collectGarbage);
    const tokens = bench.tokens;
    const open = await connectAll(async (i) => {
      const link = await callOrThrow<{ url: string }>(bench.baseURL, 'POST', '/v2/iframe-links/chats', tokens[i % tokens.length]!, { user: { id: `agent-${i}` }, scope: 'global' });
      const session = await callOrThrow<{ token: string }>(bench.baseURL, 'POST', '/bff/session', '', { link: new URL(link.url).searchParams.get('link') });
      return io(bench.baseURL, { path: realtimePath, transports: ['websocket'], reconnection: false, auth: { token: session.token } });
    });
    const loaded = await settledRss(() => rssOf(pid), inspector.collectGarbage);
    for (const s of open) s.close();
    return { idle, perThousand: ((loaded - idle) / sockets) * 1000 };
  } finally {
    inspector.close();
    await bench.cleanup();
  }
}

async function baselineRun(): Promise<{ idle: number; perThousand: number }> {
  const bare = await startChildServer(new URL('./lib/bare-realtime.ts', import.meta.url), ['--expose-gc']);
  const collect = async () => void (await bare.ask('gc'));
  try {
    const pid = bare.child.pid!;
    const idle = await settledRss(() => rssOf(pid), collect);
    const open = await connectAll(async () => io(bare.url, { path: realtimePath, transports: ['websocket'], reconnection: false }));
    const loaded = await settledRss(() => rssOf(pid), collect);
    for (const s of open) s.close();
    return { idle, perThousand: ((loaded - idle) / sockets) * 1000 };
  } finally {
    await bare.stop();
  }
}

/** Idle RSS of a process holding only an open PGlite. */
async function pgliteAlone(): Promise<number> {
  const db = await startChildServer(new URL('./lib/bare-pglite.ts', import.meta.url));
  try {
    return await settledRss(async () => (await db.ask<{ rss: number }>('rss')).rss);
  } finally {
    await db.stop();
  }
}

const ours = { idle: [] as number[], perThousand: [] as number[] };
const pglite: number[] = [];
const bare = { idle: [] as number[], perThousand: [] as number[] };
console.log(`footprint: idle RSS on PGlite and growth per 1,000 sockets (${sockets} connected), ${runs} runs, Node ${process.version}`);
for (let run = 1; run <= runs; run++) {
  const g = await gatewayRun();
  const b = await baselineRun();
  pglite.push(await pgliteAlone());
  for (const [into, r] of [[ours, g], [bare, b]] as const) {
    into.idle.push(r.idle);
    into.perThousand.push(r.perThousand);
  }
  console.log(`  run ${run}: gateway idle ${mb(g.idle).toFixed(1)} MB, +${mb(g.perThousand).toFixed(1)} MB/1,000 sockets; bare idle ${mb(b.idle).toFixed(1)} MB, +${mb(b.perThousand).toFixed(1)} MB/1,000; PGlite alone ${mb(pglite.at(-1)!).toFixed(1)} MB`);
}
const row = (metric: string, key: 'idle' | 'perThousand'): BenchRow => ({
  row: 'footprint',
  metric,
  unit: 'MB',
  database: 'PGlite',
  ours: Number(mb(median(ours[key])).toFixed(1)),
  baseline: Number(mb(median(bare[key])).toFixed(1)),
  baselineName: 'bare node:http + socket.io',
  ratio: median(ours[key]) / median(bare[key]),
  budget: null,
  met: null,
  runs,
  details: key === 'idle' ? { pglite_alone_mb: Number(mb(median(pglite)).toFixed(1)) } : { sockets },
});
const rows = [row('idle RSS', 'idle'), row('RSS per 1,000 connected sockets', 'perThousand')];
for (const r of rows) console.log(`${r.metric}: ${r.ours} MB against ${r.baseline} MB bare (×${r.ratio!.toFixed(2)})`);
await reportRows(rows);
