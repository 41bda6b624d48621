import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.ts';

/** Where Debian's nginx is, or null when it is not installed (`.ci/run` installs it). */
export function nginxBinary(): string | null {
  for (const candidate of ['/usr/sbin/nginx', '/usr/bin/nginx']) {
    if (spawnSync(candidate, ['-v']).status === 0) return candidate;
  }
  return null;
}

/** The load balancer's configuration the deployment guide shows, with its upstream servers filled in. */
export const exampleConfigPath = fileURLToPath(new URL('../../../docs/examples/nginx.conf', import.meta.url));

export interface LoadBalancer {
  /** The address clients call (http://127.0.0.1:port). */
  baseURL: string;
  stop(): Promise<void>;
}

/**
 * Runs nginx in the foreground on a free loopback port in front of the given gateways, with the
 * configuration of the deployment guide (docs/examples/nginx.conf): its `upstream` servers and `listen`
 * address are the only lines replaced.
 */
export async function startLoadBalancer(
  binary: string,
  upstreams: string[],
  options: { port?: number; /** Adds `X-Served-By` (the upstream's address) to answers, for tests that count who served. */ servedByHeader?: boolean } = {},
): Promise<LoadBalancer> {
  const prefix = await mkdtemp(join(tmpdir(), 'gw-nginx-'));
  await mkdir(join(prefix, 'logs'));
  const port = options.port ?? (await freePort());
  const example = await readFile(exampleConfigPath, 'utf8');
  const servers = upstreams.map((u) => `    server ${new URL(u).host} max_fails=1 fail_timeout=5s;`).join('\n');
  const site = example
    .replace(/^\s*server gateway-\d[^\n]*\n/gm, '')
    .replace(/(upstream gateway(_realtime)? \{\n)/g, `$1${servers}\n`)
    .replace(/listen 80;/, `listen 127.0.0.1:${port};`)
    .replace(/(proxy_pass http:\/\/gateway;)/, options.servedByHeader ? '$1\n        add_header X-Served-By $upstream_addr always;' : '$1');
  // The example is the site's part (the http block's contents); the process's own settings wrap it here.
  const conf = [
    'daemon off;',
    'master_process on;',
    'worker_processes 1;',
    'user root;',
    `pid ${join(prefix, 'nginx.pid')};`,
    `error_log ${join(prefix, 'logs', 'error.log')} warn;`,
    'events { worker_connections 1024; }',
    'http {',
    '  access_log off;',
    `  client_body_temp_path ${join(prefix, 'body')};`,
    `  proxy_temp_path ${join(prefix, 'proxy')};`,
    `  fastcgi_temp_path ${join(prefix, 'fastcgi')};`,
    `  uwsgi_temp_path ${join(prefix, 'uwsgi')};`,
    `  scgi_temp_path ${join(prefix, 'scgi')};`,
    site,
    '}',
  ].join('\n');
  const confPath = join(prefix, 'nginx.conf');
  await writeFile(confPath, conf);
  const child: ChildProcess = spawn(binary, ['-p', prefix, '-c', confPath], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  const baseURL = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${output}`);
    try {
      const res = await fetch(`${baseURL}/healthz`, { signal: AbortSignal.timeout(1_000) });
      await res.body?.cancel();
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`nginx did not answer: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    baseURL,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGQUIT');
        await exited;
      }
      await rm(prefix, { recursive: true, force: true });
    },
  };
}
