import { lookup } from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, request } from 'undici';
import { refuseAddress } from '../../core/webhooks/address-policy.ts';
import { memoized } from '../../core/webhooks/memo.ts';
import type { WebhookSender } from '../../core/webhooks/delivery.ts';
import { hostOf, type HostResolver, type UrlPolicy } from '../../core/webhooks/url-policy.ts';

/** Node's resolver, every address of both families, as the operating system orders them. */
export const systemResolver: HostResolver = async (hostname) =>
  new Promise((resolve, reject) => {
    lookup(hostname, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses)));
  });

export interface HttpSenderOptions {
  policy: UrlPolicy;
  resolveHost: HostResolver;
  /** Keep-alive connections per endpoint origin; at least the per-endpoint delivery concurrency. */
  connectionsPerOrigin?: number;
  /** Reading the answer stops here; only its status matters. */
  maxResponseBytes?: number;
}

class RefusedAddressError extends Error {}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * POSTs webhooks with undici. The connection's own DNS lookup resolves the host through the injected
 * resolver and refuses any private, loopback (unless allowed), link-local or reserved address, so the
 * socket goes to exactly the address that was checked: a name cannot be re-pointed between check and
 * connect. Redirects are answers, never followed; the whole attempt has one time limit.
 */
export function httpWebhookSender(options: HttpSenderOptions): WebhookSender & { close(): Promise<void> } {
  const maxBytes = options.maxResponseBytes ?? 64 * 1024;
  const guardedLookup = (hostname: string, lookupOptions: LookupOptions, callback: LookupCallback) => {
    options.resolveHost(hostname).then(
      (all) => {
        const wanted = lookupOptions.family === 4 || lookupOptions.family === 6 ? all.filter((a) => a.family === lookupOptions.family) : all;
        if (wanted.length === 0) return callback(Object.assign(new Error(`${hostname} does not resolve`), { code: 'ENOTFOUND' }), []);
        for (const { address } of wanted) {
          const refused = refuseAddress(address, options.policy);
          if (refused) return callback(new RefusedAddressError(`${hostname} resolves to ${address}: ${refused}`), []);
        }
        if (lookupOptions.all) return callback(null, wanted.map((a) => ({ address: a.address, family: a.family })));
        callback(null, wanted[0]!.address, wanted[0]!.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, []),
    );
  };
  const agent = new Agent({
    connect: { lookup: guardedLookup as never },
    connections: options.connectionsPerOrigin ?? 16,
    keepAliveTimeout: 10_000,
  });

  // A URL whose host is an address is checked here (no lookup will run); its verdict, like the policy, never changes.
  const refusalOf = memoized((url: string): string | null => {
    const host = hostOf(new URL(url));
    if (isIP(host) === 0) return null;
    const refused = refuseAddress(host, options.policy);
    return refused ? `${host}: ${refused}` : null;
  });

  return {
    async post({ url, headers, body, timeoutMs }) {
      const started = performance.now();
      const latencyMs = () => Math.round(performance.now() - started);
      const refused = refusalOf(url);
      if (refused) return { error: refused, latencyMs: 0 };
      // One limit for the whole attempt, the body's last byte included (undici's own limits are per phase).
      // A timer and a controller rather than AbortSignal.timeout, which costs as much as the HMAC per POST.
      const limit = new AbortController();
      const timer = setTimeout(() => limit.abort(new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError')), timeoutMs);
      try {
        const res = await request(url, {
          method: 'POST',
          headers,
          body,
          dispatcher: agent,
          signal: limit.signal,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        });
        // Read to the end (the connection is kept), or to the cap (the connection is closed); the time limit holds.
        await res.body.dump({ limit: maxBytes, signal: limit.signal });
        const retryAfter = res.headers['retry-after'];
        return { status: res.statusCode, retryAfter: Array.isArray(retryAfter) ? (retryAfter[0] ?? null) : (retryAfter ?? null), latencyMs: latencyMs() };
      } catch (err) {
        return { error: describeFailure(err, timeoutMs), latencyMs: latencyMs() };
      } finally {
        clearTimeout(timer);
      }
    },
    close: () => agent.close(),
  };
}

function describeFailure(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; message?: string; code?: string; cause?: unknown };
  if (e.name === 'TimeoutError' || e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_BODY_TIMEOUT') {
    return `no answer within ${timeoutMs / 1000} s`;
  }
  if (err instanceof RefusedAddressError) return `address not allowed: ${err.message}`;
  if (e.cause instanceof RefusedAddressError) return `address not allowed: ${e.cause.message}`;
  const code = e.code ?? (e.cause as { code?: string } | undefined)?.code;
  return `${code ? `${code}: ` : ''}${e.message ?? String(err)}`.slice(0, 500);
}
