/**
 * `npm run bench`: every benchmark in a process of its own, on PGlite and (when one answers) on PostgreSQL,
 * each on a fresh database; the rows go to bench/results.json (raw) and bench/results.md (a table), with
 * the machine they were measured on. Not part of `npm test`: figures here are medians, not assertions.
 *
 *   npm run bench                              # everything (about 45–55 minutes on 2 cores, 30 of them the WhatsApp soak)
 *   BENCH_ONLY=accept,webhooks npm run bench   # some rows
 *   BENCH_DATABASE_URL=postgres://…/test       # the PostgreSQL server to use (default: probe 127.0.0.1:5432)
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createTestDatabase } from '../src/server/testing/test-database.ts';
import { renderResults, type BenchResults } from './lib/results.ts';
import type { BenchRow } from './lib/report.ts';

interface Bench {
  row: string;
  script: string;
  /** Node flags of the benchmark process. */
  flags?: string[];
  args?: string[];
  databases: ('PGlite' | 'PostgreSQL')[];
}

const benches: Bench[] = [
  { row: 'accept', script: 'accept.ts', databases: ['PGlite', 'PostgreSQL'] },
  { row: 'accept-v3', script: 'accept-v3.ts', databases: ['PGlite', 'PostgreSQL'] },
  { row: 'end-to-end', script: 'end-to-end.ts', databases: ['PGlite', 'PostgreSQL'] },
  { row: 'webhooks', script: 'webhooks.ts', databases: ['PGlite', 'PostgreSQL'] },
  { row: 'realtime', script: 'realtime.ts', databases: ['PGlite', 'PostgreSQL'] },
  { row: 'export', script: 'export-memory.ts', flags: ['--expose-gc'], args: ['1000000'], databases: ['PGlite'] },
  { row: 'widget', script: 'widget.ts', databases: ['PGlite'] },
  { row: 'footprint', script: 'footprint.ts', databases: ['PGlite', 'PostgreSQL'] },
  { row: 'whatsapp-sessions', script: 'whatsapp-sessions.ts', flags: ['--expose-gc'], args: ['100'], databases: ['PGlite'] },
  { row: 'whatsapp-soak', script: 'whatsapp-soak.ts', args: ['--minutes', '30'], databases: ['PGlite'] },
  { row: 'start', script: 'start.ts', databases: ['PGlite'] },
  { row: 'cost', script: 'db-cost.ts', databases: ['PGlite', 'PostgreSQL'] },
  { row: 'pacing', script: 'pacing.ts', databases: ['PGlite', 'PostgreSQL'] },
];

const here = fileURLToPath(new URL('.', import.meta.url));
const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim());

async function postgresServer(): Promise<string | null> {
  const url = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query('select 1');
    return url;
  } catch {
    return null;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Writes out what earlier rows left in the server's memory (CHECKPOINT), so that one row's writes are not
 * flushed during the next row's measurement. Needs a superuser or pg_checkpoint; without, it is skipped.
 */
async function settleServer(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    await client.query('checkpoint');
  } catch (err) {
    console.log(`(no checkpoint before the run: ${err instanceof Error ? err.message : String(err)})`);
  } finally {
    await client.end().catch(() => {});
  }
}

/** The machine's CPU time so far (Linux /proc/stat, in ticks): idle, stolen by the hypervisor, and in all. */
async function cpuTicks(): Promise<{ idle: number; steal: number; total: number } | null> {
  try {
    const line = (await readFile('/proc/stat', 'utf8')).split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    return { idle: (line[3] ?? 0) + (line[4] ?? 0), steal: line[7] ?? 0, total: line.reduce((a, b) => a + b, 0) };
  } catch {
    return null;
  }
}

/** Share of the machine's CPU time spent idle over `ms` (null where /proc/stat is missing). */
async function idleShare(ms: number): Promise<number | null> {
  const a = await cpuTicks();
  await new Promise((r) => setTimeout(r, ms));
  const b = await cpuTicks();
  return a && b && b.total > a.total ? (b.idle - a.idle) / (b.total - a.total) : null;
}

/**
 * Waits until the machine is quiet (two seconds in a row at least 85% idle), 60 s at most: what the previous
 * row left behind (the server writing out its files, a dropped database's pages) otherwise lands in this row's
 * first runs.
 */
async function untilQuiet(): Promise<void> {
  const started = Date.now();
  let quiet = 0;
  while (quiet < 2 && Date.now() - started < 60_000) {
    const idle = await idleShare(1_000);
    if (idle === null) return;
    quiet = idle >= 0.85 ? quiet + 1 : 0;
  }
  if (quiet < 2) console.log('(the machine did not settle within 60 s; measuring anyway)');
}

/** Runs one benchmark script to completion; its rows, or the reason it produced none. */
async function runOne(bench: Bench, databaseUrl: string | null, outDir: string): Promise<{ rows: BenchRow[]; error: string | null }> {
  const json = join(outDir, `${bench.row}-${databaseUrl ? 'pg' : 'pglite'}.json`);
  const env: NodeJS.ProcessEnv = { ...process.env, BENCH_JSON: json };
  for (const name of ['DATABASE_URL', 'BENCH_DATABASE_URL', 'TEST_DATABASE_URL']) delete env[name];
  if (databaseUrl) Object.assign(env, { DATABASE_URL: databaseUrl, });
  const child = spawn(process.execPath, [...(bench.flags ?? []), join(here, bench.script), ...(bench.args ?? [])], { env, stdio: 'inherit' });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  try {
    const { rows } = JSON.parse(await readFile(json, 'utf8')) as { rows: BenchRow[] };
    return { rows, error: code === 0 ? null : `exited with ${code} after writing its rows` };
  } catch {
    return { rows: [], error: `exited with ${code} and wrote no rows` };
  }
}

const started = new Date();
const postgres = await postgresServer();
const outDir = await mkdtemp(join(tmpdir(), 'gw-bench-results-'));
const results: BenchResults = {
  started: started.toISOString(),
  finished: '',
  machine: {
    cores: availableParallelism(),
    cpu: cpus()[0]?.model ?? 'unknown',
    memory_gib: Number((totalmem() / 1024 ** 3).toFixed(1)),
    node: process.version,
    load_average_at_start: loadavg().map((l) => Number(l.toFixed(2))),
    postgres: postgres ? 'yes' : 'no (PostgreSQL rows skipped)',
  },
  rows: [],
  notMeasured: [],
  problems: [],
};

// With BENCH_ONLY the other rows of the last full run stay, and the table says which rows were measured again when.
if (only) {
  const previous = await readFile(join(here, 'results.json'), 'utf8').then((t) => JSON.parse(t) as BenchResults, () => null);
  if (previous) {
    results.started = previous.started;
    results.rows = previous.rows.filter((r) => !only.includes(r.row));
    results.problems = previous.problems.filter((p) => !only.some((row) => p.startsWith(`${row} on`)));
    results.remeasured = [...(previous.remeasured ?? []), `${only.join(', ')} at ${started.toISOString()}`];
  }
}

for (const bench of benches) {
  if (only && !only.includes(bench.row)) continue;
  for (const database of bench.databases) {
    if (database === 'PostgreSQL' && !postgres) continue;
    console.log(`\n=== ${bench.row} on ${database} ===`);
    // Each PostgreSQL run gets a database of its own, dropped afterwards.
    process.env.TEST_DATABASE_URL = postgres ?? '';
    if (database === 'PostgreSQL' && postgres) await settleServer(postgres);
    const fresh = database === 'PostgreSQL' ? await createTestDatabase() : null;
    await untilQuiet();
    try {
      const url = fresh && fresh.target.kind === 'postgres' ? fresh.target.url : null;
      const before = await cpuTicks();
      const { rows, error } = await runOne(bench, url, outDir);
      const after = await cpuTicks();
      // On a shared virtual machine the hypervisor may give our CPU time to others: say how much, per row.
      const steal = before && after && after.total > before.total ? (100 * (after.steal - before.steal)) / (after.total - before.total) : null;
      for (const row of rows) if (steal !== null) row.details = { ...row.details, cpu_stolen_pct: Number(steal.toFixed(1)) };
      results.rows.push(...rows);
      if (error) results.problems.push(`${bench.row} on ${database}: ${error}`);
    } finally {
      await fresh?.drop();
    }
  }
}
const order = benches.map((b) => b.row);
results.rows.sort((a, b) => order.indexOf(a.row) - order.indexOf(b.row));
results.finished = new Date().toISOString();
await rm(outDir, { recursive: true, force: true });
await writeFile(join(here, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
await writeFile(join(here, 'results.md'), renderResults(results));
console.log(`\n${renderResults(results)}`);
if (results.problems.length > 0) process.exitCode = 1;
