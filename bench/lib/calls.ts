/** Small calls the benchmarks make of a gateway process. */
import { readFile } from 'node:fs/promises';
import { callJson } from '../../src/server/testing/spawned-gateway.ts';

/** A JSON call that must succeed; answers the envelope's `data`. Set-up is not what is measured: a 429 waits its Retry-After. */
export async function callOrThrow<T>(baseURL: string, method: string, path: string, token: string, body?: unknown): Promise<T> {
  let res = await callJson<T>(baseURL, method, path, token, body);
  while (res.status === 429) {
    const seconds = (res.data as { retry_after?: number } | undefined)?.retry_after ?? 1;
    await new Promise((r) => setTimeout(r, seconds * 1000));
    res = await callJson<T>(baseURL, method, path, token, body);
  }
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.data)}`);
  return res.data;
}

/** Resident memory of a process, from /proc (Linux), in bytes. */
export async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
  if (!kb) throw new Error(`no VmRSS for ${pid}`);
  return Number(kb) * 1024;
}
