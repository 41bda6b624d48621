import { spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

/** Starts `node src/server/main.ts` on the embedded database in `dataDir`, and waits for it to exit. */
function startAndExit(dataDir: string): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'PARTNER_API_KEY', 'SECRET_KEY', 'NODE_ENV']) delete env[name];
  const child = spawn(process.execPath, ['src/server/main.ts'], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  const started = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(started);
      resolve({ code, stderr, stdout });
    }),
  );
}

describe('an unusable data directory at start', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'gw-data-dir-'));
    await writeFile(join(root, 'a-file'), 'not a directory');
  });
  afterAll(async () => {
    await chmod(join(root, 'locked'), 0o755).catch(() => {});
    await rm(root, { recursive: true, force: true });
  });

  const expectOneLine = (run: { code: number | null; stderr: string; stdout: string }, reason: RegExp) => {
    expect(run.code).not.toBe(0);
    expect(run.code).not.toBeNull();
    expect(run.stdout).toBe('');
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^DATA_DIR \S+ cannot be used: /);
    expect(lines[0]).toMatch(reason);
  };

  it('that is a file: one line on stderr, a non-zero exit', { timeout: 90_000 }, async () => {
    expectOneLine(await startAndExit(join(root, 'a-file')), /not a directory/);
  });

  it('below a file: the same', { timeout: 90_000 }, async () => {
    expectOneLine(await startAndExit(join(root, 'a-file', 'data')), /not a directory/);
  });

  // Permissions do not hold root back.
  it.skipIf(process.getuid?.() === 0)('that may not be written: the same', { timeout: 90_000 }, async () => {
    const locked = join(root, 'locked');
    await mkdir(locked);
    await chmod(locked, 0o555);
    expectOneLine(await startAndExit(locked), /permission denied/);
  });
});
