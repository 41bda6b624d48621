import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { loadConfig } from '../config.ts';
import type { Clock } from '../core/ports.ts';
import { createGateway, type Gateway, type GatewayOverrides } from '../gateway.ts';
import { freePort } from './free-port.ts';
import { staticResolver } from './static-resolver.ts';
import { createTestDatabase, type TestDatabase } from './test-database.ts';

export interface TestGateway {
  gateway: Gateway;
  partnerKey: string;
  /** One request through the real HTTP stack (routing, hooks, validation, serialization), in process. */
  call(method: InjectOptions['method'], url: string, options?: { token?: string; body?: unknown; headers?: Record<string, string> }): Promise<LightMyRequestResponse>;
  /** A new account with one client token, made through the partner API. */
  newAccount(name?: string): Promise<{ accountId: string; token: string }>;
  issueToken(accountId: string, kind: 'client' | 'sidecar'): Promise<{ tokenId: string; token: string }>;
  close(): Promise<void>;
}

export interface TestGatewayOptions extends Omit<GatewayOverrides, 'database'> {
  clock?: Clock;
  env?: Record<string, string>;
  /** A database another gateway of the test uses too (PostgreSQL only); the test drops it. */
  database?: TestDatabase;
}

/** A whole gateway on a fresh database, for integration tests. */
export async function startTestGateway(options: TestGatewayOptions = {}): Promise<TestGateway> {
  const dataDir = await mkdtemp(join(tmpdir(), 'gw-test-'));
  const shared = options.database;
  const database = shared ?? (await createTestDatabase());
  const partnerKey = randomBytes(24).toString('base64url');
  const config = loadConfig({ DATA_DIR: dataDir, PARTNER_API_KEY: partnerKey, LOG_LEVEL: 'silent', PERSONAL_PACING: 'off', ...options.env });
  const { env: _env, database: _database, ...overrides } = options;
  const gateway = await createGateway(config, {
    logger: false,
    widgetDir: null,
    ...overrides,
    // No test depends on real DNS.
    webhooks: { resolveHost: staticResolver(), ...overrides.webhooks },
    database: database.target,
  });

  const call: TestGateway['call'] = (method, url, opts = {}) => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token !== undefined) headers.authorization = `Bearer ${opts.token}`;
    return gateway.app.inject({ method, url, headers, ...(opts.body === undefined ? {} : { payload: opts.body as object }) });
  };

  const issueToken: TestGateway['issueToken'] = async (accountId, kind) => {
    const res = await call('POST', `/v2/accounts/${accountId}/tokens`, { token: partnerKey, body: { kind } });
    if (res.statusCode !== 201) throw new Error(`token not issued: ${res.statusCode} ${res.body}`);
    const data = res.json().data as { token_id: string; token: string };
    return { tokenId: data.token_id, token: data.token };
  };

  return {
    gateway,
    partnerKey,
    call,
    issueToken,
    async newAccount(name = 'Test account') {
      const res = await call('POST', '/v2/accounts', { token: partnerKey, body: { name } });
      if (res.statusCode !== 201) throw new Error(`account not created: ${res.statusCode} ${res.body}`);
      const accountId = (res.json().data as { account_id: string }).account_id;
      const { token } = await issueToken(accountId, 'client');
      return { accountId, token };
    },
    async close() {
      await gateway.stop();
      if (!shared) await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A gateway of the live drivers listening on a port of its own, whose PUBLIC_URL is that address: the platforms'
 * emulators post their updates to it over real HTTP. `env` names the platforms' addresses and keys; `options` what a
 * test gateway may be given besides (a clock).
 */
export async function startLiveGateway(env: Record<string, string>, options: Omit<TestGatewayOptions, 'env'> = {}): Promise<{ t: TestGateway; base: string }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t = await startTestGateway({ ...options, env: { TRANSPORT_MODE: 'live', PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: base, ...env } });
  await t.gateway.listen();
  return { t, base };
}
