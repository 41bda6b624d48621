import { lookup } from 'node:dns';
import type * as Undici from 'undici';
import type { Agent } from 'undici';
import type { WebhookSender } from '../../core/webhooks/delivery.ts';
import { guardedLookup, refusedLiteralHost } from '../../core/webhooks/guarded-lookup.ts';
import { memoized } from '../../core/webhooks/memo.ts';
import { packageOnFirstUse } from '../../core/on-first-use.ts';
import type { HostResolver, UrlPolicy } from '../../core/webhooks/url-policy.ts';

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

const undici = packageOnFirstUse<typeof Undici>('undici');

class RefusedAddressError extends Error {}

/**
 * POSTs webhooks with undici. The connection's own DNS lookup resolves the host through the injected
 * resolver and refuses any private, loopback (unless allowed), link-local or reserved address (see
 * `guardedLookup`). Redirects are answers, never followed; the whole attempt has one time limit.
 */
export function httpWebhookSender(options: HttpSenderOptions): WebhookSender & { close(): Promise<void> } {
  const maxBytes = options.maxResponseBytes ?? 64 * 1024;
  const connectLookup = guardedLookup(options.resolveHost, options.policy, (message) => new RefusedAddressError(message));
  // undici and the agent are made with the first delivery: a gateway with no webhook endpoint holds neither.
  let client: { agent: Agent; request: typeof Undici.request } | undefined;
  const connected = () => {
    if (client) return client;
    const { Agent, request } = undici();
    const agent = new Agent({ connect: { lookup: connectLookup as never }, connections: options.connectionsPerOrigin ?? 16, keepAliveTimeout: 10_000 });
    return (client = { agent, request });
  };

  // The verdict on a URL whose host is an address, like the policy, never changes.
  const refusalOf = memoized((url: string): string | null => refusedLiteralHost(new URL(url), options.policy));

  return {
    async post({ url, headers, body, timeoutMs, readAnswer }) {
      const started = performance.now();
      const latencyMs = () => Math.round(performance.now() - started);
      const refused = refusalOf(url);
      if (refused) return { error: refused, latencyMs: 0 };
      // One limit for the whole attempt, the body's last byte included (undici's own limits are per phase).
      // A timer and a controller rather than AbortSignal.timeout, which costs as much as the HMAC per POST.
      const limit = new AbortController();
      const timer = setTimeout(() => limit.abort(new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError')), timeoutMs);
      try {
        const { agent, request } = connected();
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
        const answer = readAnswer ? await readCapped(res.body, maxBytes) : undefined;
        if (!readAnswer) await res.body.dump({ limit: maxBytes, signal: limit.signal });
        const retryAfter = res.headers['retry-after'];
        return {
          status: res.statusCode,
          retryAfter: Array.isArray(retryAfter) ? (retryAfter[0] ?? null) : (retryAfter ?? null),
          latencyMs: latencyMs(),
          ...(answer !== undefined ? { answer } : {}),
        };
      } catch (err) {
        return { error: describeFailure(err, timeoutMs), latencyMs: latencyMs() };
      } finally {
        clearTimeout(timer);
      }
    },
    close: async () => client?.agent.close(),
  };
}

/** The answer's text, up to `maxBytes` (a longer one is cut there and its connection closed). */
async function readCapped(body: AsyncIterable<Uint8Array> & { destroy(): unknown }, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(Buffer.from(chunk));
    size += chunk.byteLength;
    if (size >= maxBytes) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, maxBytes).toString('utf8');
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
