/**
 * A gateway for a benchmark: `node src/server/main.ts` in a process of its own on a fresh data directory
 * (PGlite) or on the PostgreSQL that BENCH_DATABASE_URL names, with an account, its client token and an
 * active sandbox telegram channel, all set up over real HTTP as a CRM would.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callJson, spawnGateway, type SpawnedGateway } from '../../src/server/testing/spawned-gateway.ts';

export interface BenchGateway {
  gateway: SpawnedGateway;
  baseURL: string;
  accountId: string;
  token: string;
  channelId: string;
  close(): Promise<void>;
}

export const TELEGRAM_TOKEN = `123456789:${'A'.repeat(20)}${'b_-'.repeat(5)}`;

async function must<T>(baseURL: string, method: string, path: string, token: string, body?: unknown): Promise<T> {
  const res = await callJson<T>(baseURL, method, path, token, body);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.data)}`);
  return res.data;
}

export async function startBenchGateway(options: { databaseUrl?: string; env?: Record<string, string> } = {}): Promise<BenchGateway> {
  const dataDir = await mkdtemp(join(tmpdir(), 'gw-bench-'));
  const gateway = await spawnGateway({
    dataDir,
    ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : {}),
    env: { LOG_LEVEL: 'error', WEBHOOK_ALLOW_LOOPBACK: 'true', ...options.env },
  });
  try {
    const { baseURL, partnerKey } = gateway;
    const account = await must<{ account_id: string }>(baseURL, 'POST', '/v2/accounts', partnerKey, { name: 'Bench' });
    const { token } = await must<{ token: string }>(baseURL, 'POST', `/v2/accounts/${account.account_id}/tokens`, partnerKey, { kind: 'client' });
    const [created] = await must<{ channel_id: string }[]>(baseURL, 'POST', '/v2/channels', token, {
      transport: 'telegram',
      credentials: { telegram_token: TELEGRAM_TOKEN },
    });
    const channelId = created!.channel_id;
    for (let tries = 0; ; tries++) {
      const [channel] = await must<{ status: string }[]>(baseURL, 'GET', `/v2/channels/${channelId}`, token);
      if (channel?.status === 'active') break;
      if (tries > 100) throw new Error(`channel ${channelId} did not become active: ${channel?.status}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    return {
      gateway,
      baseURL,
      accountId: account.account_id,
      token,
      channelId,
      async close() {
        await gateway.stop();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await gateway.kill();
    await rm(dataDir, { recursive: true, force: true });
    throw err;
  }
}

export { must as callOrThrow };

/** Resident memory of a process, from /proc (Linux), in bytes. */
export async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
  if (!kb) throw new Error(`no VmRSS for ${pid}`);
  return Number(kb) * 1024;
}
