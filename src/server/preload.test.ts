import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ALLOCATOR_ENV } from './allocator-env.ts';

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const names = Object.keys(ALLOCATOR_ENV);

/** What a process started as `npm start` starts the gateway (`node --import ./src/server/preload.js …`) sees. */
async function startedWith(env: NodeJS.ProcessEnv) {
  const script = `console.log(JSON.stringify({ pid: process.pid, env: Object.fromEntries(${JSON.stringify(names)}.map((n) => [n, process.env[n] ?? null])), flags: process.execArgv }))`;
  const { stdout } = await run(process.execPath, ['--import', './src/server/preload.js', '--max-semi-space-size=8', '-e', script], { cwd: repoRoot, env });
  return JSON.parse(stdout) as { env: Record<string, string | null>; flags: string[] };
}

const withoutAllocatorSettings = () => Object.fromEntries(Object.entries(process.env).filter(([name]) => !names.includes(name)));

describe.runIf(process.platform === 'linux')('the start preload', () => {
  it('starts the process again with the allocator settings it lacks, its Node flags kept', async () => {
    const seen = await startedWith(withoutAllocatorSettings());
    expect(seen.env).toEqual(ALLOCATOR_ENV);
    expect(seen.flags).toContain('--max-semi-space-size=8');
  });

  it('keeps a setting the environment already has', async () => {
    const own = Object.fromEntries(names.map((n) => [n, '262144']));
    const seen = await startedWith({ ...withoutAllocatorSettings(), ...own });
    expect(seen.env).toEqual(own);
  });
});

describe('the start preload’s stripped sources', () => {
  it('strips a TypeScript module once, and later starts read it from the cache without loading the type stripper', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'preload-test-'));
    try {
      const module = join(dir, 'typed.ts');
      await writeFile(module, 'const seen: string[] = [];\nseen.push("ran");\nconsole.log(JSON.stringify({ seen, stripper: process.moduleLoadList.some((m) => m.includes("amaro")) }));\n');
      const start = async () => {
        const { stdout } = await run(process.execPath, ['--import', './src/server/preload.js', module], { cwd: repoRoot, env: { ...process.env, GATEWAY_STRIPPED_CACHE: join(dir, 'cache') } });
        return JSON.parse(stdout) as { seen: string[]; stripper: boolean };
      };
      expect(await start()).toEqual({ seen: ['ran'], stripper: true });
      expect(await readdir(join(dir, 'cache'))).toHaveLength(1);
      expect(await start()).toEqual({ seen: ['ran'], stripper: false });

      // A changed source is stripped again, not served from the cache.
      await writeFile(module, 'const seen: number[] = [2];\nconsole.log(JSON.stringify({ seen, stripper: true }));\n');
      expect((await start()).seen).toEqual([2]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
