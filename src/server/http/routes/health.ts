import type { FastifyPluginAsync } from 'fastify';

export interface HealthDeps {
  /** Resolves when the database answers and the gateway is not shutting down; rejects otherwise. */
  checkReady(): Promise<void>;
}

/** Liveness (`/healthz`: the process answers) and readiness (`/readyz`: it can serve traffic). */
export const healthRoutes: FastifyPluginAsync<HealthDeps> = async (app, deps) => {
  const schema = { tags: ['health'], security: [] };
  app.get('/healthz', { schema }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema }, async (request, reply) => {
    try {
      await deps.checkReady();
      return { status: 'ready' };
    } catch (err) {
      // An outage is logged once where it is noticed; each probe of it only at debug.
      request.log.debug({ err }, 'not ready');
      return reply.code(503).send({ status: 'unavailable' });
    }
  });
};
