import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { limits } from '../../../contract/limits.ts';
import { AppError } from '../../core/errors.ts';
import type { Clock } from '../../core/ports.ts';
import type { WindowCounter } from './window-counter.ts';

export interface RateLimitOptions {
  counter: WindowCounter;
  clock: Clock;
  /** Defaults to the interface's 500 requests per 5-second window. */
  max?: number;
  windowSeconds?: number;
}

/** Counts one request against `key`'s window; sets the RateLimit headers, and throws 429 past the limit. */
export type RequestLimiter = (key: string, request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * A fixed window per key, aligned to the clock, so every process that shares the counter agrees when it
 * resets. Headers follow the IETF RateLimit fields draft. If the shared counter is unreachable the request
 * is let through: losing the limit briefly beats refusing all.
 */
export function requestLimiter(opts: RateLimitOptions): RequestLimiter {
  const max = opts.max ?? limits.rateLimitRequests;
  const windowSeconds = opts.windowSeconds ?? limits.rateLimitWindowSeconds;
  const windowMs = windowSeconds * 1000;
  const policy = `"default";q=${max};w=${windowSeconds}`;
  return async (key, request, reply) => {
    const now = opts.clock.now().getTime();
    const windowId = Math.floor(now / windowMs);
    const resetSeconds = Math.max(1, Math.ceil(((windowId + 1) * windowMs - now) / 1000));
    let count: number;
    try {
      count = await opts.counter.increment(key, windowId, windowMs);
    } catch (err) {
      request.log.warn({ err }, 'rate limit counter unavailable; request let through');
      return;
    }
    reply.header('RateLimit-Policy', policy);
    reply.header('RateLimit', `"default";r=${Math.max(0, max - count)};t=${resetSeconds}`);
    if (count > max) {
      reply.header('Retry-After', String(resetSeconds));
      throw new AppError('TOO_MANY_REQUESTS', 'Rate limit exceeded', { retry_after: resetSeconds });
    }
  };
}

/** The interface's rate limit: one window per token (the partner key shares one). */
export const rateLimitPlugin = fp<RateLimitOptions>(
  async (app: FastifyInstance, opts) => {
    const limit = requestLimiter(opts);
    app.addHook('onRequest', async (request, reply) => {
      // Runs after auth, so every request here has a principal.
      const principal = request.principal;
      if (!principal) return;
      await limit(principal.kind === 'partner' ? 'partner' : principal.tokenId, request, reply);
    });
  },
  { name: 'rate-limit', dependencies: ['auth'] },
);
