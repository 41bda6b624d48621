import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '../core/ports.ts';
import { freePort } from './free-port.ts';
import { startTestGateway, type TestGateway, type TestGatewayOptions } from './harness.ts';
import { createTestDatabase, databaseKind, type TestDatabase } from './test-database.ts';

/**
 * Live gateways started one after another on one database, as an upgrade or a new PUBLIC_URL restarts them: what
 * one registered with the platforms is found up to date, or not, by the next.
 */

/** A database that outlives the gateways started on it (on PGlite, a data directory of its own). */
export async function lastingDatabase(prefix: string): Promise<TestDatabase> {
  if (databaseKind() === 'postgres') return createTestDatabase();
  const dataDir = await mkdtemp(join(tmpdir(), prefix));
  return { target: { kind: 'pglite', dataDir }, drop: () => rm(dataDir, { recursive: true, force: true }) };
}

/** Where the next gateway listens: `port`, that of an earlier one (a free one unless given); `previousUrl`, its PREVIOUS_PUBLIC_URL. */
export interface RestartAt {
  port?: number;
  previousUrl?: string;
  clock?: Clock;
}

/** A live gateway on `database` whose PUBLIC_URL is the address it listens on, with the platforms' settings `env`. */
export async function startLiveAt(
  database: TestDatabase,
  env: Record<string, string>,
  at: RestartAt = {},
  options: Omit<TestGatewayOptions, 'env' | 'database' | 'clock'> = {},
): Promise<{ t: TestGateway; base: string }> {
  const listening = at.port ?? (await freePort());
  const base = `http://127.0.0.1:${listening}`;
  const t = await startTestGateway({
    ...options,
    database,
    ...(at.clock ? { clock: at.clock } : {}),
    env: {
      TRANSPORT_MODE: 'live',
      PORT: String(listening),
      HOST: '127.0.0.1',
      PUBLIC_URL: base,
      ...(at.previousUrl ? { PREVIOUS_PUBLIC_URL: at.previousUrl } : {}),
      ...env,
    },
  });
  await t.gateway.listen();
  return { t, base };
}
