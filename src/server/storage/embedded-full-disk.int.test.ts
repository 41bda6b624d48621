import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, statfs, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../testing/eventually.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { databaseKind } from '../testing/test-database.ts';
import { MIN_FREE_BYTES } from './data-dir-check.ts';

/** A small file system of the test's own (a tmpfs), where it may mount one (root on Linux); null elsewhere. */
async function smallFileSystem(): Promise<string | null> {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return null;
  const dir = await mkdtemp(join(tmpdir(), 'gw-small-fs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=160m', 'tmpfs', dir], { stdio: 'ignore' });
    return dir;
  } catch {
    await rm(dir, { recursive: true, force: true });
    return null;
  }
}

const mountPoint = databaseKind() === 'pglite' ? await smallFileSystem() : null;

// The embedded database only; it needs a file system that can be filled (a tmpfs the test mounts, as root).
describe.skipIf(!mountPoint)('the embedded database’s disk filling up while it runs', () => {
  let t: TestGateway;
  const filler = join(mountPoint ?? '', 'filler');
  beforeAll(async () => {
    t = await startTestGateway({ database: { target: { kind: 'pglite', dataDir: join(mountPoint!, 'data') }, drop: async () => {} } });
  }, 180_000);
  afterAll(async () => {
    await rm(filler, { force: true });
    await t?.close();
    execFileSync('umount', [mountPoint!]);
    await rm(mountPoint!, { recursive: true, force: true });
  });

  it('answers 503 and turns /readyz 503 instead of exiting or staying ready, and goes on once there is room', { timeout: 60_000 }, async () => {
    expect((await t.call('GET', '/readyz')).statusCode).toBe(200);
    const { bavail, bsize } = await statfs(mountPoint!);
    // Leaves less room than the embedded database needs to go on safely.
    await writeFile(filler, Buffer.alloc(Math.max(0, bavail * bsize - MIN_FREE_BYTES / 2)));

    const ready = await t.call('GET', '/readyz');
    expect(ready.statusCode).toBe(503);
    const refused = await t.call('POST', '/v2/accounts', { token: t.partnerKey, body: { name: 'No room' } });
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toMatchObject({ error: 'SERVICE_UNAVAILABLE' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);

    await rm(filler);
    await eventually(async () => ((await t.call('GET', '/readyz')).statusCode === 200 ? true : undefined), 20_000);
    expect((await t.call('POST', '/v2/accounts', { token: t.partnerKey, body: { name: 'Room again' } })).statusCode).toBe(201);
  });
});
