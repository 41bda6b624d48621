import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ALLOCATOR_ENV } from './allocator-env.ts';

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const names = Object.keys(ALLOCATOR_ENV);

/** What a process started as `npm start` starts the gateway (`node --import ./src/server/preload.ts …`) sees. */
async function startedWith(env: NodeJS.ProcessEnv) {
  const script = `console.log(JSON.stringify({ pid: process.pid, env: Object.fromEntries(${JSON.stringify(names)}.map((n) => [n, process.env[n] ?? null])), flags: process.execArgv }))`;
  const { stdout } = await run(process.execPath, ['--import', './src/server/preload.ts', '--max-semi-space-size=8', '-e', script], { cwd: repoRoot, env });
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
