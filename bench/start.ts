/**
 * Start: how long the gateway takes from its process starting to answering `GET /readyz`, run as `npm start`
 * runs it once prepared (its preload and flags, the embedded database): on an empty data directory
 * (a first start: the database copied from the installed template, the demo account made) and again on the same
 * directory (a restart). Baseline in the same run: a bare Fastify process (bench/lib/bare-server.ts) until it
 * listens. Each run alternates the three.
 *
 *   npm run bench:start                      # BENCH_RUNS=3
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChildServer } from './lib/child.ts';
import { median, reportRows, type BenchRow } from './lib/report.ts';
import { NPM_START_NODE_FLAGS, spawnGateway } from '../src/server/testing/spawned-gateway.ts';

const runs = Number(process.env.BENCH_RUNS ?? 3);

/** Milliseconds from spawning the gateway on `dataDir` until it is ready (spawnGateway polls /readyz every 50 ms). */
async function readyMs(dataDir: string): Promise<number> {
  const started = performance.now();
  const gateway = await spawnGateway({ dataDir, nodeFlags: NPM_START_NODE_FLAGS, preloaded: true });
  const ms = performance.now() - started;
  await gateway.stop();
  return ms;
}

async function bareMs(): Promise<number> {
  const started = performance.now();
  const bare = await startChildServer(new URL('./lib/bare-server.ts', import.meta.url));
  const ms = performance.now() - started;
  await bare.stop();
  return ms;
}

const fresh: number[] = [];
const restart: number[] = [];
const bare: number[] = [];
console.log(`start: ready time on an empty data directory and on a restart, ${runs} runs, Node ${process.version}`);
for (let run = 1; run <= runs; run++) {
  const dataDir = await mkdtemp(join(tmpdir(), 'gw-bench-start-'));
  try {
    fresh.push(await readyMs(dataDir));
    restart.push(await readyMs(dataDir));
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
  bare.push(await bareMs());
  console.log(`  run ${run}: first start ${(fresh.at(-1)! / 1000).toFixed(1)} s, restart ${(restart.at(-1)! / 1000).toFixed(1)} s, bare Fastify ${(bare.at(-1)! / 1000).toFixed(2)} s`);
}
const row = (metric: string, ms: number[], budgetSeconds: number): BenchRow => ({
  row: 'start',
  metric,
  unit: 's',
  database: 'PGlite',
  ours: Number((median(ms) / 1000).toFixed(2)),
  baseline: Number((median(bare) / 1000).toFixed(2)),
  baselineName: 'bare Fastify process, until it listens',
  ratio: median(ms) / median(bare),
  budget: `≤ ${budgetSeconds} s`,
  met: median(ms) / 1000 <= budgetSeconds,
  runs,
});
const rows = [row('ready on an empty data directory', fresh, 10), row('ready on a restart', restart, 3)];
for (const r of rows) console.log(`${r.metric}: ${r.ours} s against ${r.baseline} s bare (budget ${r.budget}: ${r.met ? 'met' : 'not met'})`);
await reportRows(rows);
