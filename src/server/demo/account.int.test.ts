import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../core/ports.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { ensureDemoAccount } from './account.ts';

describe('the demo account', () => {
  let t: TestGateway;
  let parent: string;
  beforeAll(async () => {
    t = await startTestGateway();
    parent = await mkdtemp(join(tmpdir(), 'gw-demo-'));
  });
  afterAll(async () => {
    await t?.close();
    await rm(parent, { recursive: true, force: true });
  });

  it('is made once and kept in a data directory that did not exist yet (a gateway on PostgreSQL makes none)', async () => {
    const dataDir = join(parent, 'not-yet', 'data');
    const deps = { store: t.gateway.store, clock: systemClock };
    const demo = await ensureDemoAccount(deps, dataDir);
    expect(demo).toMatchObject({ name: 'Demo', token: expect.any(String) });
    expect(JSON.parse(await readFile(join(dataDir, 'demo-account.json'), 'utf8'))).toEqual(demo);
    expect(await ensureDemoAccount(deps, dataDir)).toEqual(demo);
  });
});
