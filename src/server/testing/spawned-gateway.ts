import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.ts';
import { ALLOCATOR_ENV } from '../allocator-env.ts';

/** A gateway running as a real child process (`node src/server/main.ts`), for crash tests. */
export interface SpawnedGateway {
  baseURL: string;
  partnerKey: string;
  child: ChildProcess;
  output(): string;
  /** SIGKILL: no shutdown hooks, no draining. */
  kill(): Promise<void>;
  /** SIGTERM and wait for a clean exit. */
  stop(): Promise<void>;
}

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

/** Node's flags for the gateway, as `npm start` passes them (package.json; why in docs/benchmarks.md). */
export const GATEWAY_NODE_FLAGS = ['--max-semi-space-size=8', '--expose-gc'];

/** The whole of what `npm start` gives Node before the gateway: its preload, then GATEWAY_NODE_FLAGS. */
export const NPM_START_NODE_FLAGS = ['--import', './src/server/preload.js', ...GATEWAY_NODE_FLAGS];

export async function spawnGateway(options: {
  dataDir: string;
  databaseUrl?: string;
  partnerKey?: string;
  port?: number;
  env?: Record<string, string>;
  /** Instead of GATEWAY_NODE_FLAGS. */
  nodeFlags?: string[];
  /** The flags load `npm start`'s preload, which adds the allocator's settings itself (by starting the process again). */
  preloaded?: boolean;
}): Promise<SpawnedGateway> {
  const port = options.port ?? (await freePort());
  const baseURL = `http://127.0.0.1:${port}`;
  const partnerKey = options.partnerKey ?? randomBytes(24).toString('base64url');
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'NODE_ENV', 'PUBLIC_URL', 'SECRET_KEY']) delete env[name];
  Object.assign(env, {
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: baseURL,
    DATA_DIR: options.dataDir,
    PARTNER_API_KEY: partnerKey,
    LOG_LEVEL: 'warn',
    // Tests of personal channels send at their own pace; pacing has its own tests.
    PERSONAL_PACING: 'off',
    // As `npm start`'s preload sets them, unless it is loaded.
    ...(options.preloaded ? {} : ALLOCATOR_ENV),
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    ...options.env,
  });
  const child = spawn(process.execPath, [...(options.nodeFlags ?? GATEWAY_NODE_FLAGS), 'src/server/main.ts'], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  const waitExit = () => new Promise<void>((resolve) => (exited(child) ? resolve() : child.once('exit', () => resolve())));

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited(child)) throw new Error(`gateway exited during start:\n${output}`);
    try {
      const res = await fetch(`${baseURL}/readyz`, { signal: AbortSignal.timeout(2_000) });
      await res.body?.cancel();
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`gateway not ready in time:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    baseURL,
    partnerKey,
    child,
    output: () => output,
    async kill() {
      child.kill('SIGKILL');
      await waitExit();
    },
    async stop() {
      child.kill('SIGTERM');
      await waitExit();
    },
  };
}

/** JSON over real HTTP to a spawned gateway; answers the status and the envelope's `data`. */
export async function callJson<T = unknown>(baseURL: string, method: string, path: string, token: string, body?: unknown): Promise<{ status: number; data: T }> {
  const res = await fetch(`${baseURL}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { data: T };
  return { status: res.status, data: json.data };
}
