import type { FastifyInstance } from 'fastify';
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

/**
 * The interface's rate limit: a fixed window per token, aligned to the clock, so every process that
 * shares the counter agrees when it resets. Headers follow the IETF RateLimit fields draft. If the
 * shared counter is unreachable the request is let through: losing the limit briefly beats refusing all.
 */
export const rateLimitPlugin = fp<RateLimitOptions>(
  async (app: FastifyInstance, opts) => {
    const max = opts.max ?? limits.rateLimitRequests;
    const windowSeconds = opts.windowSeconds ?? limits.rateLimitWindowSeconds;
    const windowMs = windowSeconds * 1000;
    const policy = `"default";q=${max};w=${windowSeconds}`;

    app.addHook('onRequest', async (request, reply) => {
      // Runs after auth, so every request here has a principal.
      const principal = request.principal;
      if (!principal) return;
      const key = principal.kind === 'partner' ? 'partner' : principal.tokenId;
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
    });
  },
  { name: 'rate-limit', dependencies: ['auth'] },
);
