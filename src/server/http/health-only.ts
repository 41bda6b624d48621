import type { FastifyInstance } from 'fastify';
import { AppError } from '../core/errors.ts';

/** What a process without the api role answers: its health, readiness and metrics, for the orchestrator. */
export function answerOnlyHealth(app: FastifyInstance): void {
  const watched = new Set(['/healthz', '/readyz', '/metrics']);
  app.addHook('onRequest', async (request) => {
    if (!watched.has(request.url.split('?')[0]!)) throw new AppError('NOT_FOUND', 'This gateway process runs workers only (GATEWAY_ROLES)');
  });
}
