import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test as base } from '@playwright/test';

/**
 * End-to-end fixtures: every spec FILE talks to its own gateway, started as a real child process
 * (`node src/server/main.ts`, or the start script a spec file names with `test.use({ gatewayEntry })`) on a free
 * port with a fresh data directory (PGlite, no DATABASE_URL).
 *
 * Playwright keeps a worker alive across files, so a worker-scoped fixture alone would share one
 * gateway between files. Instead the worker holds at most one running gateway and the test-scoped
 * `gateway` fixture replaces it whenever a test from another file comes along; the last one is
 * stopped when the worker shuts down.
 */

export interface RunningGateway {
  /** `http://127.0.0.1:<port>`, also used as Playwright's `baseURL`. */
  baseURL: string;
  /** The partner key printed in the startup banner (account administration). */
  partnerKey: string;
  /** The demo account's client token printed in the startup banner. */
  token: string;
  /** Everything the process has written so far (stdout and stderr), for diagnostics. */
  output(): string;
}

interface GatewayProcess extends RunningGateway {
  stop(): Promise<void>;
}

/** A gateway process stopped the way an operator or a crash stops one, to be started again on its data and port. */
export interface KillableGateway extends GatewayProcess {
  /** Sends the signal and waits for the process to exit (SIGKILL after the grace time if a SIGTERM is not enough). */
  kill(signal: 'SIGTERM' | 'SIGKILL'): Promise<void>;
}

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
/** What the gateway process runs; a spec file may run another start script (`test.use({ gatewayEntry })`). */
const mainEntry = join('src', 'server', 'main.ts');

// A fresh embedded database is created (initdb, migrations, the job queue's schema) before the gateway answers:
// seconds on a quiet machine, but more than 30 s has been seen on a busy two-core one with two browsers running.
// E2E_READY_TIMEOUT_MS: more time for a machine shared with other heavy work.
const READY_TIMEOUT_MS = Number(process.env.E2E_READY_TIMEOUT_MS ?? 90_000);
const STOP_GRACE_MS = 5_000;
const MAX_OUTPUT_CHARS = 64_000;

/** Variables that would point the gateway somewhere other than its own fresh directory. */
const INHERITED_BUT_UNWANTED = ['DATABASE_URL', 'REDIS_URL', 'NODE_ENV', 'HOST', 'PORT', 'PUBLIC_URL', 'DATA_DIR', 'PARTNER_API_KEY', 'SECRET_KEY'];

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') {
        server.close();
        reject(new Error('could not determine a free port'));
        return;
      }
      server.close(() => resolve(address.port));
    });
  });
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function answers200(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    await res.body?.cancel();
    return res.status === 200;
  } catch {
    return false;
  }
}

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

async function killChild(child: ChildProcess, signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> {
  if (exited(child)) return;
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  const graceful = await Promise.race([gone.then(() => true), sleep(STOP_GRACE_MS).then(() => false)]);
  if (!graceful && !exited(child)) {
    child.kill('SIGKILL');
    await gone;
  }
}

class StartupError extends Error {
  readonly portTaken: boolean;
  constructor(message: string, portTaken: boolean) {
    super(message);
    this.name = 'StartupError';
    this.portTaken = portTaken;
  }
}

async function startOnce(dataDir: string, entry: string, fixedPort?: number): Promise<KillableGateway> {
  const port = fixedPort ?? (await freePort());
  const baseURL = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of INHERITED_BUT_UNWANTED) delete env[name];
  Object.assign(env, { PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: baseURL, DATA_DIR: dataDir, LOG_LEVEL: 'warn', PERSONAL_PACING: 'off' });

  // Inside npm scripts process.execPath is the project's pinned Node (the `node` devDependency).
  const child = spawn(process.execPath, [entry], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let stdout = '';
  const append = (chunk: Buffer, isStdout: boolean) => {
    const text = chunk.toString('utf8');
    if (isStdout) stdout += text;
    output = (output + text).slice(-MAX_OUTPUT_CHARS);
  };
  child.stdout?.on('data', (chunk: Buffer) => append(chunk, true));
  child.stderr?.on('data', (chunk: Buffer) => append(chunk, false));
  let spawnError: Error | null = null;
  child.once('error', (err) => {
    spawnError = err;
  });

  // A worker that dies without running teardown must not leave a gateway behind.
  const onExit = () => {
    if (!exited(child)) child.kill('SIGKILL');
  };
  process.once('exit', onExit);
  const kill = async (signal: 'SIGTERM' | 'SIGKILL') => {
    await killChild(child, signal);
    process.removeListener('exit', onExit);
  };
  const stop = () => kill('SIGTERM');

  const fail = async (reason: string): Promise<never> => {
    await stop();
    const portTaken = /EADDRINUSE/.test(output);
    throw new StartupError(
      `gateway (${process.execPath} ${entry}, port ${port}) ${reason}\n--- gateway output ---\n${output.trim() || '(none)'}\n---`,
      portTaken,
    );
  };

  // /healthz answers as soon as the server listens; the banner (with the demo token) follows it.
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let healthy = false;
  for (;;) {
    if (spawnError) return fail(`could not be started: ${String(spawnError)}`);
    if (exited(child)) return fail(`exited before it was ready (code ${child.exitCode}, signal ${child.signalCode})`);
    if (!healthy) healthy = await answers200(`${baseURL}/healthz`);
    const partnerKey = /^\s*Partner key.*: (\S+)\s*$/m.exec(stdout)?.[1];
    const token = /client token: (\S+)\s*$/m.exec(stdout)?.[1];
    if (healthy && partnerKey && token) {
      return { baseURL, partnerKey, token, output: () => output, stop, kill };
    }
    if (Date.now() > deadline) {
      const missing = healthy ? 'printed no partner key and demo token' : 'did not answer GET /healthz with 200';
      return fail(`${missing} within ${READY_TIMEOUT_MS / 1000}s`);
    }
    await sleep(200);
  }
}

/** Starts a gateway on a fresh data directory; the returned `stop` also removes the directory. */
export async function startGateway(entry = mainEntry): Promise<GatewayProcess> {
  const dataDir = await mkdtemp(join(tmpdir(), 'gateway-e2e-'));
  const cleanUp = () => rm(dataDir, { recursive: true, force: true });
  for (let attempt = 1; ; attempt++) {
    try {
      const gateway = await startOnce(dataDir, entry);
      return {
        ...gateway,
        stop: async () => {
          await gateway.stop();
          await cleanUp();
        },
      };
    } catch (err) {
      // Another process may grab the port between probing and listening; try another one.
      if (err instanceof StartupError && err.portTaken && attempt < 3) continue;
      await cleanUp();
      throw err;
    }
  }
}

/**
 * A gateway on a data directory and a port the caller keeps: a spec that stops the process (or kills it) and starts
 * it again on the same database and address, as a restart or a crash does. The caller removes the directory.
 */
export async function startGatewayOn(dataDir: string, port: number, entry = mainEntry): Promise<KillableGateway> {
  return startOnce(dataDir, entry, port);
}

export { freePort };

interface WorkerFixtures {
  /** The worker's current gateway and the spec file it belongs to. */
  gatewaySlot: { file: string | null; gateway: GatewayProcess | null };
}

interface TestFixtures {
  /** The gateway's start script, relative to the repository (main.ts unless the spec file says otherwise). */
  gatewayEntry: string;
  gateway: RunningGateway;
  partnerKey: string;
  token: string;
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  gatewaySlot: [
    async ({}, use) => {
      const slot: WorkerFixtures['gatewaySlot'] = { file: null, gateway: null };
      await use(slot);
      await slot.gateway?.stop();
    },
    { scope: 'worker', timeout: 60_000 },
  ],
  gatewayEntry: [mainEntry, { option: true }],
  gateway: async ({ gatewaySlot, gatewayEntry }, use, testInfo) => {
    if (gatewaySlot.file !== testInfo.file || !gatewaySlot.gateway) {
      // Starting (and stopping the previous file's gateway) is not the test's own time.
      testInfo.setTimeout(testInfo.timeout + READY_TIMEOUT_MS + STOP_GRACE_MS * 2);
      const previous = gatewaySlot.gateway;
      gatewaySlot.file = null;
      gatewaySlot.gateway = null;
      await previous?.stop();
      gatewaySlot.gateway = await startGateway(gatewayEntry);
      gatewaySlot.file = testInfo.file;
    }
    const gateway = gatewaySlot.gateway;
    await use(gateway);
    if (testInfo.status !== testInfo.expectedStatus) {
      await testInfo.attach('gateway-output.txt', { body: gateway.output(), contentType: 'text/plain' });
    }
  },
  baseURL: async ({ gateway }, use) => use(gateway.baseURL),
  partnerKey: async ({ gateway }, use) => use(gateway.partnerKey),
  token: async ({ gateway }, use) => use(gateway.token),
});

export { expect } from '@playwright/test';
