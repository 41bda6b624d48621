/**
 * PostgreSQL's work per message, the machine's speed aside: a fixed number of `POST /v2/messages` (sandbox
 * transport, spread over BENCH_CHATS chats) accepted and then sent, and what the server did for them: WAL
 * written, transactions committed, rows inserted, updated and deleted, and buffers touched, per message.
 * Counted from the server's own statistics of the gateway's database (and its WAL position) around the
 * run, read after the gateway has stopped, so that every backend has reported. Beside them, the CPU time the
 * gateway's process and the local PostgreSQL server spent on the same fixed work (from /proc, on Linux): less
 * steady than the counts, far steadier than a rate. Not a row of `npm run bench`: a diagnostic to compare two
 * versions of the send path. Without DATABASE_URL it runs on PGlite and tells the gateway's CPU only (its
 * database's work is in its process), counting 5 s of idling after the last message was accepted.
 *
 * PostgreSQL's CPU is that of the gateway's own connections (its database's backends), so that other work on
 * the server stays out of it; the whole server's is printed beside it. The rows' baseline, in the same run and
 * under the same load: a bare Fastify route that commits one row per request on the same database
 * (bench/lib/bare-insert-server.ts), the least a durable accept costs.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node bench/db-cost.ts
 *   BENCH_MESSAGES=5000 BENCH_CHATS=100 …
 */
import autocannon from 'autocannon';
import pg from 'pg';
import { ALLOCATOR_ENV } from '../src/server/allocator-env.ts';
import { GATEWAY_NODE_FLAGS } from '../src/server/testing/spawned-gateway.ts';
import { startChildServer } from './lib/child.ts';
import { microsEach, startBackendMeter, startCpuMeter } from './lib/cpu-time.ts';
import { freshPostgres } from './lib/fresh-postgres.ts';
import { startBenchGateway } from './lib/gateway-process.ts';
import { reportRows, type BenchRow } from './lib/report.ts';
import { sendRequests } from './lib/send-requests.ts';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 5000);
const CHATS = Number(process.env.BENCH_CHATS ?? 100);

interface Counters {
  /** The server's WAL position, in bytes. */
  wal: bigint;
  commits: number;
  inserted: number;
  updated: number;
  deleted: number;
  buffers: number;
}

async function counters(serverUrl: string, database: string): Promise<Counters> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const { rows } = await client.query<Record<keyof Counters, string>>(
      `select pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::text as wal,
              xact_commit::text as commits, tup_inserted::text as inserted, tup_updated::text as updated, tup_deleted::text as deleted,
              (blks_hit + blks_read)::text as buffers
       from pg_stat_database where datname = $1`,
      [database],
    );
    const r = rows[0]!;
    return { wal: BigInt(r.wal), commits: Number(r.commits), inserted: Number(r.inserted), updated: Number(r.updated), deleted: Number(r.deleted), buffers: Number(r.buffers) };
  } finally {
    await client.end();
  }
}

interface TableCounts {
  table: string;
  inserted: number;
  updated: number;
  hot: number;
  deleted: number;
  buffers: number;
}

/** Rows written per table of the gateway's database, and how many of the updates were HOT (no index touched). */
async function tableCounts(databaseUrl: string): Promise<Map<string, TableCounts>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ table: string; inserted: string; updated: string; hot: string; deleted: string; buffers: string }>(
      `select relname as "table", n_tup_ins::text as inserted, n_tup_upd::text as updated, n_tup_hot_upd::text as hot, n_tup_del::text as deleted,
              (coalesce(heap_blks_hit, 0) + coalesce(heap_blks_read, 0) + coalesce(idx_blks_hit, 0) + coalesce(idx_blks_read, 0))::text as buffers
       from pg_stat_user_tables join pg_statio_user_tables using (relid, relname, schemaname)`,
    );
    return new Map(rows.map((r) => [r.table, { table: r.table, inserted: Number(r.inserted), updated: Number(r.updated), hot: Number(r.hot), deleted: Number(r.deleted), buffers: Number(r.buffers) }]));
  } finally {
    await client.end();
  }
}

/** The same load as the gateway's, on `url`: `amount` sends over CHATS chats, all answered 2xx. */
async function load(url: string, channelId: string, tokens: string[]): Promise<void> {
  const result = await autocannon({ url, connections: 16, amount: MESSAGES, method: 'POST', requests: sendRequests(channelId, tokens, CHATS, 'cost') });
  if (result['2xx'] !== MESSAGES) throw new Error(`${MESSAGES - result['2xx']} of ${MESSAGES} sends to ${url} were not accepted`);
}

interface BaselineCost {
  /** The bare process's CPU per request, its embedded database included on PGlite. */
  process: number | null;
  /** Its database's backends' CPU per request (PostgreSQL only). */
  postgres: number | null;
}

/**
 * The baseline: a bare Fastify route committing one row per request (bench/lib/bare-insert-server.ts), started
 * with the gateway's Node flags and allocator settings, on a fresh database of the same kind, under the same load.
 */
async function baseline(serverUrl: string | undefined): Promise<BaselineCost> {
  const database = serverUrl ? await freshPostgres(serverUrl) : null;
  const { DATABASE_URL: _server, ...inherited } = process.env;
  const env = { ...inherited, ...ALLOCATOR_ENV, ...(database ? { DATABASE_URL: database.url } : {}) };
  const bare = await startChildServer(new URL('./lib/bare-insert-server.ts', import.meta.url), GATEWAY_NODE_FLAGS, [], env);
  try {
    const meter = await startCpuMeter({ process: bare.child.pid! });
    const backends = serverUrl && database ? await startBackendMeter(serverUrl, new URL(database.url).pathname.slice(1)) : null;
    await load(`${bare.url}/v2/messages`, '00000000-0000-0000-0000-000000000000', ['none']);
    const postgres = backends ? await backends.stop() : null;
    const cpu = microsEach({ ...(await meter.stop()), postgres }, MESSAGES);
    return { process: cpu.process ?? null, postgres: cpu.postgres ?? null };
  } finally {
    await bare.stop();
    await database?.drop();
  }
}

const BASELINE_NAME = 'bare Fastify route, one insert per request';

/**
 * Without DATABASE_URL: the gateway's CPU per message on the embedded database, whose work is the gateway's own.
 * Its database is read only once the gateway stopped: it gets a few seconds to send, then must have sent all.
 */
async function embedded() {
  const gateway = await startBenchGateway({ tokens: 40 });
  try {
    const meter = await startCpuMeter({ gateway: gateway.process.child.pid! });
    const started = performance.now();
    await load(`${gateway.baseURL}/v2/messages`, gateway.channelId, gateway.tokens);
    const accepted = performance.now();
    await new Promise((r) => setTimeout(r, 5_000));
    const cpu = microsEach(await meter.stop(), MESSAGES);
    await gateway.stop();
    const unsent = await gateway.unsent();
    if (unsent > 0) throw new Error(`${unsent} messages were still unsent 5 s after the last was accepted`);
    console.log(`db-cost on PGlite: ${MESSAGES} messages over ${CHATS} chats, accepted in ${((accepted - started) / 1000).toFixed(1)} s`);
    const bare = await baseline(undefined);
    console.log(`CPU per message: gateway (with its database) ${cpu.gateway ?? '–'} µs; ${BASELINE_NAME}: ${bare.process ?? '–'} µs`);
    if (cpu.gateway != null) await reportRows([costRow('PGlite', 'gateway CPU per message sent (its database included)', 'µs', cpu.gateway, bare.process)]);
  } finally {
    await gateway.stop().catch(() => {});
    await gateway.cleanup();
  }
}

/**
 * A row of `npm run bench`: a fixed amount of work, beside the bare route's for the same requests when it has
 * one (lower is better; the ratio is ours over the baseline's). Two versions compare by alternating runs.
 */
const costRow = (database: string, metric: string, unit: string, ours: number, baselineValue: number | null, details?: BenchRow['details']): BenchRow => ({
  row: 'cost',
  metric,
  unit,
  database,
  ours,
  baseline: baselineValue,
  baselineName: baselineValue === null ? null : BASELINE_NAME,
  ratio: baselineValue ? Number((ours / baselineValue).toFixed(2)) : null,
  budget: null,
  met: null,
  runs: 1,
  ...(details ? { details } : {}),
});

async function main() {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) return embedded();
  const gateway = await startBenchGateway({ tokens: 40 });
  try {
    if (gateway.target.kind !== 'postgres') throw new Error('unreachable');
    const database = new URL(gateway.target.url).pathname.slice(1);
    const before = await counters(serverUrl, database);
    const tablesBefore = await tableCounts(gateway.target.url);
    const meter = await startCpuMeter({ gateway: gateway.process.child.pid!, server: 'postgres' });
    const backends = await startBackendMeter(serverUrl, database);
    const started = performance.now();
    await load(`${gateway.baseURL}/v2/messages`, gateway.channelId, gateway.tokens);
    const accepted = performance.now();
    for (;;) {
      if ((await gateway.unsent()) === 0) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const sent = performance.now();
    const postgres = await backends.stop();
    const cpu = microsEach({ ...(await meter.stop()), postgres }, MESSAGES);
    await gateway.stop();
    const after = await counters(serverUrl, database);
    const tablesAfter = await tableCounts(gateway.target.url);
    const per = (k: keyof Omit<Counters, 'wal'>) => (after[k] - before[k]) / MESSAGES;
    console.log(`db-cost: ${MESSAGES} messages over ${CHATS} chats, accepted in ${((accepted - started) / 1000).toFixed(1)} s, all sent ${((sent - started) / 1000).toFixed(1)} s after the first`);
    console.log(
      `per message: WAL ${(Number(after.wal - before.wal) / MESSAGES).toFixed(0)} bytes, commits ${per('commits').toFixed(2)}, rows inserted ${per('inserted').toFixed(2)}, ` +
        `updated ${per('updated').toFixed(2)}, deleted ${per('deleted').toFixed(2)}, buffers touched ${per('buffers').toFixed(1)}`,
    );
    for (const [name, t] of tablesAfter) {
      const b = tablesBefore.get(name) ?? { inserted: 0, updated: 0, hot: 0, deleted: 0, buffers: 0 };
      const each = (k: 'inserted' | 'updated' | 'hot' | 'deleted' | 'buffers') => (t[k] - b[k]) / MESSAGES;
      if (each('inserted') + each('updated') + each('deleted') + each('buffers') < 0.01) continue;
      console.log(`  ${name}: inserted ${each('inserted').toFixed(2)}, updated ${each('updated').toFixed(2)} (HOT ${each('hot').toFixed(2)}), deleted ${each('deleted').toFixed(2)}, buffers ${each('buffers').toFixed(1)}`);
    }
    // The meter also counted autocannon's requests and the polls for the end: the same on both sides of a comparison.
    console.log(`CPU per message: gateway ${cpu.gateway ?? '–'} µs, PostgreSQL ${cpu.postgres ?? '–'} µs (its connections; the whole server ${cpu.server ?? '–'} µs)`);
    const wal = Number(after.wal - before.wal) / MESSAGES;
    const bare = await baseline(serverUrl);
    console.log(`${BASELINE_NAME}: ${bare.process ?? '–'} µs, PostgreSQL ${bare.postgres ?? '–'} µs per request`);
    await reportRows([
      ...(cpu.gateway != null ? [costRow('PostgreSQL', 'gateway CPU per message sent', 'µs', cpu.gateway, bare.process)] : []),
      ...(cpu.postgres != null
        ? [costRow('PostgreSQL', 'PostgreSQL CPU per message sent (the gateway\'s connections)', 'µs', cpu.postgres, bare.postgres, { whole_server_us: cpu.server ?? '–' })]
        : []),
      costRow('PostgreSQL', 'WAL per message sent', 'bytes', Math.round(wal), null, { rows_updated: Number(per('updated').toFixed(2)), rows_inserted: Number(per('inserted').toFixed(2)) }),
    ]);
  } finally {
    await gateway.stop().catch(() => {});
    await gateway.cleanup();
  }
}

await main();
