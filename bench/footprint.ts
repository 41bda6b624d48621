/**
 * Footprint: the gateway's resident memory when idle, on PGlite (as `npm start` runs it) or, with DATABASE_URL, on
 * PostgreSQL (its database's memory is then the server's, not the gateway's), after setup and a settling pause, and its growth per 1,000 connected frame sockets (each its own session, as frames are).
 * Baseline in the same run: a bare node:http + socket.io process (bench/lib/bare-realtime.ts), idle and with
 * the same 1,000 sockets. The gateway and the baseline run in processes of their own; this one holds the sockets.
 * Every reading follows a full garbage collection (through the gateway's inspector, the baseline's --expose-gc).
 *
 * Then, on the same gateway: RSS once 1,000 messages were accepted and sent, and once it exported 100,000
 * messages to CSV (written into its database while it was stopped). Beside them, the idle RSS of a bare Fastify
 * process and (on PGlite) of a process holding only PGlite, with PGlite's defaults and with the gateway's settings.
 *
 *   npm run bench:footprint                  # BENCH_SOCKETS=1000 BENCH_RUNS=3 BENCH_MESSAGES=1000 BENCH_EXPORTED=100000
 */
import { io, type Socket } from 'socket.io-client';
import { realtimePath } from '../src/contract/realtime.ts';
import { freePort } from '../src/server/testing/free-port.ts';
import { startChildServer } from './lib/child.ts';
import { inspectorOf } from './lib/inspector.ts';
import { startBenchGateway } from './lib/gateway-process.ts';
import { callOrThrow, rssOf } from './lib/calls.ts';
import { databaseName, median, reportRows, type BenchRow } from './lib/report.ts';
import { exportMessages, sendMessages } from './lib/footprint-load.ts';
import { ALLOCATOR_ENV } from '../src/server/allocator-env.ts';
import { GATEWAY_NODE_FLAGS, NPM_START_NODE_FLAGS } from '../src/server/testing/spawned-gateway.ts';

const sockets = Number(process.env.BENCH_SOCKETS ?? 1000);
/** Messages accepted and sent before the "after messages" reading, and exported before the last one. */
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 1000);
const EXPORTED = Number(process.env.BENCH_EXPORTED ?? 100_000);
/** The idle footprint the embedded default is meant to stay within. */
const IDLE_BUDGET_MB = 200;
const runs = Number(process.env.BENCH_RUNS ?? 3);
const DATABASE = databaseName(process.env.DATABASE_URL);
const embedded = DATABASE === 'PGlite';
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

interface GatewayReadings {
  idle: number;
  perThousand: number;
  afterMessages: number;
  afterExport: number;
  exportSeconds: number;
}

async function gatewayRun(): Promise<GatewayReadings> {
  const inspectPort = await freePort();
  // Links and sends are rate limited per token: spread them over a few client tokens.
  // Started as `npm start` starts it, preload included: what the preload loads (or, once, Node's compile cache did:
  // 13 MB) is part of the footprint.
  const bench = await startBenchGateway({ tokens: Math.max(10, Math.ceil(sockets / 400)), nodeFlags: NPM_START_NODE_FLAGS, env: { NODE_OPTIONS: `--inspect=127.0.0.1:${inspectPort}` } });
  let inspector = await inspectorOf(inspectPort);
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
    await sendMessages(bench, MESSAGES);
    const afterMessages = await settledRss(() => rssOf(pid), inspector.collectGarbage);
    inspector.close();
    const exported = await exportMessages(bench, EXPORTED);
    if (exported.unsentBefore > 0) console.log(`  (${exported.unsentBefore} of the ${MESSAGES} messages were still unsent when the gateway stopped)`);
    inspector = await inspectorOf(inspectPort);
    const afterExport = await settledRss(() => rssOf(bench.process.child.pid!), inspector.collectGarbage);
    return { idle, perThousand: ((loaded - idle) / sockets) * 1000, afterMessages, afterExport, exportSeconds: exported.seconds };
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

/** Idle RSS of a bare Fastify process (bench/lib/bare-server.ts: one route, no database), after a full collection. */
async function fastifyAlone(): Promise<number> {
  const bare = await startChildServer(new URL('./lib/bare-server.ts', import.meta.url), ['--expose-gc']);
  try {
    return await settledRss(() => rssOf(bare.child.pid!), async () => void (await bare.ask('gc')));
  } finally {
    await bare.stop();
  }
}

/**
 * Idle RSS of a process holding only an open PGlite: with PGlite's defaults, or (`gateway`) with the settings,
 * Node flags and allocator settings the gateway starts it with.
 */
async function pgliteAlone(settings: 'defaults' | 'gateway'): Promise<number> {
  const script = new URL('./lib/bare-pglite.ts', import.meta.url);
  const db = settings === 'gateway' ? await startChildServer(script, GATEWAY_NODE_FLAGS, ['gateway'], { ...process.env, ...ALLOCATOR_ENV }) : await startChildServer(script);
  try {
    return await settledRss(async () => (await db.ask<{ rss: number }>('rss')).rss);
  } finally {
    await db.stop();
  }
}

const ours = { idle: [] as number[], perThousand: [] as number[], afterMessages: [] as number[], afterExport: [] as number[], exportSeconds: [] as number[] };
const pglite = { defaults: [] as number[], gateway: [] as number[] };
const fastify: number[] = [];
const bare = { idle: [] as number[], perThousand: [] as number[] };
console.log(`footprint: idle RSS on ${DATABASE} and growth per 1,000 sockets (${sockets} connected), ${runs} runs, Node ${process.version}`);
for (let run = 1; run <= runs; run++) {
  const g = await gatewayRun();
  const b = await baselineRun();
  if (embedded) {
    pglite.defaults.push(await pgliteAlone('defaults'));
    pglite.gateway.push(await pgliteAlone('gateway'));
  }
  fastify.push(await fastifyAlone());
  for (const [into, r] of [[ours, g], [bare, b]] as const) {
    into.idle.push(r.idle);
    into.perThousand.push(r.perThousand);
  }
  ours.afterMessages.push(g.afterMessages);
  ours.afterExport.push(g.afterExport);
  ours.exportSeconds.push(g.exportSeconds);
  const alone = embedded ? `PGlite alone ${mb(pglite.defaults.at(-1)!).toFixed(1)} MB (${mb(pglite.gateway.at(-1)!).toFixed(1)} MB with the gateway's settings), ` : '';
  console.log(`  run ${run}: gateway idle ${mb(g.idle).toFixed(1)} MB, +${mb(g.perThousand).toFixed(1)} MB/1,000 sockets; bare idle ${mb(b.idle).toFixed(1)} MB, +${mb(b.perThousand).toFixed(1)} MB/1,000; ${alone}bare Fastify ${mb(fastify.at(-1)!).toFixed(1)} MB; ` +
      `gateway after ${MESSAGES} messages ${mb(g.afterMessages).toFixed(1)} MB, after a ${EXPORTED}-message export ${mb(g.afterExport).toFixed(1)} MB (${g.exportSeconds.toFixed(1)} s)`);
}
const MB = (bytes: number) => Number(mb(bytes).toFixed(1));
const against = (metric: string, ourBytes: number, baselineBytes: number, baselineName: string, budget: number | null, details: BenchRow['details']): BenchRow => ({
  row: 'footprint',
  metric,
  unit: 'MB',
  database: DATABASE,
  ours: MB(ourBytes),
  baseline: MB(baselineBytes),
  baselineName,
  ratio: ourBytes / baselineBytes,
  // The idle budget is the embedded default's: on PostgreSQL the database's memory is the server's.
  budget: budget === null || !embedded ? null : `≤ ${budget} MB`,
  met: budget === null || !embedded ? null : mb(ourBytes) <= budget,
  runs,
  details,
});
const pgliteDetails: BenchRow['details'] = embedded
  ? { pglite_defaults_mb: MB(median(pglite.defaults)), pglite_gateway_settings_mb: MB(median(pglite.gateway)), bare_fastify_mb: MB(median(fastify)) }
  : { bare_fastify_mb: MB(median(fastify)) };
const rows = [
  against('idle RSS', median(ours.idle), median(bare.idle), 'bare node:http + socket.io', IDLE_BUDGET_MB, pgliteDetails),
  against('idle RSS against a bare Fastify process', median(ours.idle), median(fastify), 'bare Fastify, one route', IDLE_BUDGET_MB, pgliteDetails),
  ...(embedded ? [against("PGlite alone, with the gateway's settings", median(pglite.gateway), median(pglite.defaults), "PGlite alone, with PGlite's defaults", null, {})] : []),
  against('RSS per 1,000 connected sockets', median(ours.perThousand), median(bare.perThousand), 'bare node:http + socket.io', null, { sockets }),
  against(`RSS after ${MESSAGES.toLocaleString('en')} messages sent`, median(ours.afterMessages), median(ours.idle), 'the same gateway idle', null, {}),
  against(`RSS after a ${EXPORTED.toLocaleString('en')}-message export`, median(ours.afterExport), median(ours.idle), 'the same gateway idle', null, {
    export_seconds: Number(median(ours.exportSeconds).toFixed(1)),
  }),
];
for (const r of rows) console.log(`${r.metric}: ${r.ours} MB against ${r.baseline} MB, ${r.baselineName} (×${r.ratio!.toFixed(2)})`);
await reportRows(rows);
