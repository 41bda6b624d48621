import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { createGateway } from './gateway.ts';
import { createTestDatabase, databaseKind, type TestDatabase } from './testing/test-database.ts';

const run = promisify(execFile);

describe(`accounts CLI (${databaseKind()})`, () => {
  let dataDir: string;
  let database: TestDatabase;
  let env: Record<string, string>;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'gw-cli-'));
    database = await createTestDatabase();
    env = { DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...(database.target.kind === 'postgres' ? { DATABASE_URL: database.target.url } : {}) };
  });
  afterAll(async () => {
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const cli = async (...args: string[]) => {
    const { stdout } = await run(process.execPath, ['src/server/cli.ts', ...args], { env: { ...process.env, ...env } });
    return JSON.parse(stdout);
  };
  const gatewayOnSameData = () =>
    createGateway(loadConfig({ ...env, PARTNER_API_KEY: 'p'.repeat(32) }), { logger: false, widgetDir: null });

  it('creates an account whose token the gateway accepts, issues a sidecar key, and revokes', async () => {
    const created = await cli('create', '--name', 'Acme');
    expect(created).toMatchObject({ name: 'Acme', account_id: expect.any(String), token: expect.stringMatching(/^mgw_/) });
    const sidecar = await cli('token', '--account', created.account_id, '--kind', 'sidecar');
    expect(sidecar).toMatchObject({ kind: 'sidecar', token: expect.stringMatching(/^mgw_/) });
    expect((await cli('list')).map((a: { name: string }) => a.name)).toEqual(['Acme']);

    const gateway = await gatewayOnSameData();
    const get = (token: string) =>
      gateway.app.inject({ method: 'GET', url: '/v2/webhooks', headers: { authorization: `Bearer ${token}` } });
    try {
      expect((await get(created.token)).statusCode).toBe(200);
      expect((await get(sidecar.token)).statusCode).toBe(403);
      if (databaseKind() === 'pglite') {
        // The embedded database belongs to the running gateway; the CLI says so instead of corrupting it.
        await expect(cli('list')).rejects.toThrow(/in use by process/);
      }
    } finally {
      await gateway.stop();
    }

    expect(await cli('revoke', '--account', created.account_id, '--token', created.token_id)).toEqual({ revoked: created.token_id });
    const after = await gatewayOnSameData();
    try {
      const res = await after.app.inject({ method: 'GET', url: '/v2/webhooks', headers: { authorization: `Bearer ${created.token}` } });
      expect(res.statusCode).toBe(401);
    } finally {
      await after.stop();
    }
  });

  it('explains a bad command with the usage and exit code 64', async () => {
    const failure = await run(process.execPath, ['src/server/cli.ts', 'frobnicate'], { env: { ...process.env, ...env } }).catch((e) => e);
    expect(failure.code).toBe(64);
    expect(failure.stderr).toContain('usage: npm run accounts');
  });
});
