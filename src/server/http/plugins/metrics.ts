import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Histogram, type Registry } from 'prom-client';
import { bearerToken } from '../../../contract/authorization.ts';
import { hashSecret, secretMatches } from '../../core/accounts/token-secret.ts';
import { AppError } from '../../core/errors.ts';

export interface MetricsOptions {
  /** Where the gateway's instruments are registered; this plugin adds the HTTP ones and serves them all. */
  registry: Registry;
  /** The bearer token a scraper presents (METRICS_TOKEN). */
  token: string;
}

/** Route templates, not paths, label the requests: a path's ids would make a series per chat or channel. */
const UNMATCHED = 'unmatched';

/**
 * Times every request by route template, method and status, and serves the registry at `GET /metrics` in
 * Prometheus' text format to a scraper holding the metrics token (a key of its own: the partner key would give
 * a scraper every account's administration). Registered only when a token is configured.
 */
export const metricsPlugin = fp<MetricsOptions>(
  async (app: FastifyInstance, opts) => {
    const tokenHash = hashSecret(opts.token);
    const requests = new Histogram({
      name: 'gateway_http_request_duration_seconds',
      help: 'HTTP requests served, by method, route template and status code, and how long each took.',
      labelNames: ['method', 'route', 'status_code'] as const,
      buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
      registers: [opts.registry],
    });
    app.addHook('onResponse', async (request, reply) => {
      const route = request.routeOptions.url ?? UNMATCHED;
      requests.observe({ method: request.method, route, status_code: reply.statusCode }, reply.elapsedTime / 1000);
    });
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      const presented = bearerToken(request.headers.authorization);
      if (presented === null || !secretMatches(presented, tokenHash)) {
        throw new AppError('UNAUTHORIZED', 'A valid metrics token is required');
      }
      const text = await opts.registry.metrics();
      return reply.header('content-type', opts.registry.contentType).header('cache-control', 'no-store').send(text);
    });
  },
  { name: 'metrics' },
);
