/**
 * Where a benchmark's CPU goes: the CPU time each process involved spent over a measured stretch (user and
 * system, from Linux /proc), so that a row can say per request or per delivery how much fell to the gateway,
 * to PostgreSQL and to the load generator or receiver. On two cores they all share, that split says more
 * about a ratio than the ratio does. Where /proc is missing (not Linux) every figure is null.
 */
import { readdir, readFile } from 'node:fs/promises';
import pg from 'pg';
import { median } from './report.ts';

/** USER_HZ: /proc counts CPU time in these ticks per second, 100 on every Linux that Node runs on. */
const TICKS_PER_SECOND = 100;

/** CPU seconds a process has used so far, or null when it is gone or /proc is missing. */
export async function processCpuSeconds(pid: number): Promise<number | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name, which may itself hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** CPU seconds used so far by each PostgreSQL process of this machine (by pid), or null when /proc is missing. */
async function postgresProcesses(): Promise<Map<number, number> | null> {
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return null;
  }
  const used = new Map<number, number>();
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const comm = await readFile(`/proc/${entry}/comm`, 'utf8').catch(() => '');
    if (!comm.startsWith('postgres')) continue;
    const seconds = await processCpuSeconds(Number(entry));
    if (seconds !== null) used.set(Number(entry), seconds);
  }
  // None on this machine: the server runs elsewhere, and its time cannot be read here.
  return used.size > 0 ? used : null;
}

export type CpuParts = Record<string, number | 'postgres' | 'self'>;

/**
 * Starts measuring: each part is a pid, `self` (this process) or `postgres` (every process of the local
 * PostgreSQL server, backends that start meanwhile included). `stop` answers the CPU seconds of each part
 * since the start; null for a part that could not be read (a PostgreSQL server on another machine).
 */
export async function startCpuMeter<P extends CpuParts>(parts: P): Promise<{ stop(): Promise<Record<keyof P, number | null>> }> {
  const read = async () => {
    const postgres = Object.values(parts).includes('postgres') ? await postgresProcesses() : null;
    const self = process.cpuUsage();
    const at: Record<string, number | null | Map<number, number>> = {};
    for (const [name, part] of Object.entries(parts)) {
      at[name] = part === 'self' ? (self.user + self.system) / 1e6 : part === 'postgres' ? postgres : await processCpuSeconds(part);
    }
    return at;
  };
  const before = await read();
  return {
    async stop() {
      const after = await read();
      const used: Record<string, number | null> = {};
      for (const name of Object.keys(parts)) {
        const [a, b] = [before[name], after[name]];
        if (a instanceof Map && b instanceof Map) {
          // A backend that ended meanwhile took its time with it; one that began counts from zero.
          used[name] = [...b].reduce((sum, [pid, seconds]) => sum + seconds - (a.get(pid) ?? 0), 0);
        } else {
          used[name] = typeof a === 'number' && typeof b === 'number' ? b - a : null;
        }
      }
      return used as Record<keyof P, number | null>;
    },
  };
}

/** CPU microseconds per unit of work (request, delivery), by part: null where the part could not be read. */
export type CpuEach = Record<string, number | null>;

/** Each part's CPU seconds as microseconds per unit of work, for `count` units. */
export function microsEach(used: Record<string, number | null>, count: number): CpuEach {
  return Object.fromEntries(Object.entries(used).map(([part, seconds]) => [part, seconds === null || count === 0 ? null : Math.round((seconds / count) * 1e6)]));
}

/** Each part's median over the runs that could read it; parts no run could read are left out. */
export function medianByPart(runs: readonly CpuEach[]): Record<string, number> {
  return Object.fromEntries(
    Object.keys(runs[0] ?? {}).flatMap((part) => {
      const each = runs.map((r) => r[part]).filter((v): v is number => typeof v === 'number');
      return each.length > 0 ? [[part, median(each)]] : [];
    }),
  );
}

/**
 * The CPU of one database's backends on a local PostgreSQL server: the processes serving connections to
 * `database` when `stop` is called, each since `start` (or since it began, for one opened meanwhile). The server's
 * other work (other databases' sessions, on a machine shared with other work) stays out, which the whole server's
 * figure (`postgres` above) cannot tell apart. A backend that closed before `stop` is missed: the gateway's pool
 * keeps its connections. Null where the server is elsewhere.
 */
export async function startBackendMeter(serverUrl: string, database: string): Promise<{ stop(): Promise<number | null> }> {
  const pids = async (): Promise<number[]> => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [database]);
      return rows.map((r) => r.pid);
    } finally {
      await client.end();
    }
  };
  const cpuOf = async (list: number[]) => new Map((await Promise.all(list.map(async (pid) => [pid, await processCpuSeconds(pid)] as const))).filter((e): e is [number, number] => e[1] !== null));
  const before = await cpuOf(await pids());
  return {
    async stop() {
      const after = await cpuOf(await pids());
      if (after.size === 0) return null;
      return [...after].reduce((sum, [pid, seconds]) => sum + seconds - (before.get(pid) ?? 0), 0);
    },
  };
}
