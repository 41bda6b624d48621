/**
 * A gateway for benchmarks, in a process of its own (`node src/server/main.ts`), on a fresh database: PGlite in
 * a temporary directory, or a new database on the PostgreSQL server named by DATABASE_URL. Set up with one
 * account, an active whatsapp channel of the sandbox and many client tokens (the interface's rate limit is per
 * token, and a benchmark must measure the gateway, not the limit).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { freshPostgres } from './fresh-postgres.ts';
import { openDatabase, type Database, type DatabaseTarget } from '../../src/server/storage/database.ts';
import { callJson, spawnGateway, type SpawnedGateway } from '../../src/server/testing/spawned-gateway.ts';

export interface BenchGateway {
  baseURL: string;
  target: DatabaseTarget;
  accountId: string;
  /** Client tokens of the account, to spread requests over rate-limit windows. */
  tokens: string[];
  channelId: string;
  process: SpawnedGateway;
  /** Starts the gateway again on the same database and port, after `stop` (on PGlite, say, after `inspect`). */
  restart(): Promise<void>;
  /** SIGTERM: a clean stop, which also writes a CPU profile when NODE_OPTIONS asked for one. */
  stop(): Promise<void>;
  /** Reads the database directly; on PGlite only after `stop` (one process at a time). */
  inspect<T>(read: (db: Database['db']) => Promise<T>): Promise<T>;
  /**
   * Messages accepted and not yet sent. On PostgreSQL at any time, through one connection kept for it; on
   * PGlite only after `stop`, once the gateway's process has let the database go.
   */
  unsent(): Promise<number>;
  /** Drops the database and the data directory. */
  cleanup(): Promise<void>;
}

export async function startBenchGateway(options: {
  tokens: number;
  env?: Record<string, string>;
  /** Instead of GATEWAY_NODE_FLAGS (say, NPM_START_NODE_FLAGS, to run it with `npm start`'s preload too). */
  nodeFlags?: string[];
}): Promise<BenchGateway> {
  const dataDir = await mkdtemp(join(tmpdir(), 'gw-bench-'));
  const postgres = process.env.DATABASE_URL ? await freshPostgres(process.env.DATABASE_URL) : null;
  const target: DatabaseTarget = postgres ? { kind: 'postgres', url: postgres.url } : { kind: 'pglite', dataDir };
  // BENCH_CPU_PROF=<dir>: the gateway writes a V8 CPU profile there when it stops. BENCH_GATEWAY_NODE_OPTIONS:
  // any other Node options for the gateway (say, an --import that counts queries).
  const nodeOptions = [
    process.env.BENCH_CPU_PROF ? `--cpu-prof --cpu-prof-dir=${process.env.BENCH_CPU_PROF}` : '',
    process.env.BENCH_GATEWAY_NODE_OPTIONS ?? '',
  ].filter(Boolean);
  const profile: Record<string, string> = nodeOptions.length > 0 ? { NODE_OPTIONS: nodeOptions.join(' ') } : {};
  // BENCH_GATEWAY_NODE_FLAGS: Node flags for the gateway instead of those `npm start` passes (to compare them).
  const flags = process.env.BENCH_GATEWAY_NODE_FLAGS;
  const spawnOptions = {
    dataDir,
    ...(postgres ? { databaseUrl: postgres.url } : {}),
    ...(flags !== undefined ? { nodeFlags: flags.split(' ').filter(Boolean) } : options.nodeFlags ? { nodeFlags: options.nodeFlags } : {}),
    env: { LOG_LEVEL: 'warn', ...profile, ...options.env },
  };
  let child = await spawnGateway(spawnOptions);
  const { baseURL, partnerKey } = child;
  const account = await callJson<{ account_id: string }>(baseURL, 'POST', '/v2/accounts', partnerKey, { name: 'Bench' });
  const accountId = account.data.account_id;
  const tokens: string[] = [];
  for (let i = 0; i < options.tokens; i++) {
    tokens.push((await callJson<{ token: string }>(baseURL, 'POST', `/v2/accounts/${accountId}/tokens`, partnerKey, { kind: 'client' })).data.token);
  }
  const channelId = (await callJson<{ channel_id: string }[]>(baseURL, 'POST', '/v2/channels', tokens[0]!, { transport: 'whatsapp', credentials: {} })).data[0]!
    .channel_id;
  await callJson(baseURL, 'POST', `/v2/sandbox/channels/${channelId}/scan`, tokens[0]!, {});
  for (let i = 0; ; i++) {
    const { data } = await callJson<{ status: string }[]>(baseURL, 'GET', `/v2/channels/${channelId}`, tokens[0]!);
    if (data[0]?.status === 'active') break;
    if (i > 200) throw new Error('the bench channel did not become active');
    await new Promise((r) => setTimeout(r, 50));
  }
  let stopped = false;
  let counter: pg.Client | null = null;
  const unsentQuery = `select count(*)::int as n from messages where status = 'accepted'`;
  const inspect = async <T>(read: (db: Database['db']) => Promise<T>): Promise<T> => {
    const database = await openDatabase(target);
    try {
      return await read(database.db);
    } finally {
      await database.close();
    }
  };
  return {
    baseURL,
    target,
    accountId,
    tokens,
    channelId,
    get process() {
      return child;
    },
    async restart() {
      if (!stopped) throw new Error('restart after stop');
      child = await spawnGateway({ ...spawnOptions, partnerKey, port: Number(new URL(baseURL).port) });
      stopped = false;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await child.stop();
    },
    inspect,
    async unsent() {
      if (!postgres) return inspect(async (db) => (await sql<{ n: number }>`${sql.raw(unsentQuery)}`.execute(db)).rows[0]!.n);
      if (!counter) {
        counter = new pg.Client({ connectionString: postgres.url });
        await counter.connect();
      }
      return (await counter.query<{ n: number }>(unsentQuery)).rows[0]!.n;
    },
    async cleanup() {
      await counter?.end().catch(() => {});
      if (!stopped) await child.kill();
      await postgres?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A whatsapp chat id of the bench's `n`-th customer: a Russian mobile number (11 digits) for up to 10⁷ customers. */
export const benchChatId = (n: number) => `7900${String(n).padStart(7, '0')}`;
