import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Pages meant to be framed set their own `frame-ancestors`; everything else refuses framing. */
    frameable?: boolean;
  }
}

export const securityHeadersPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onSend', async (request, reply) => {
      reply.header('X-Content-Type-Options', 'nosniff');
      reply.header('Referrer-Policy', 'no-referrer');
      if (!request.routeOptions.config?.frameable) {
        // A policy the route set (a customer's file is sandboxed) keeps its rules and refuses framing too.
        const own = reply.getHeader('Content-Security-Policy');
        reply.header('Content-Security-Policy', typeof own === 'string' ? `${own}; frame-ancestors 'none'` : "frame-ancestors 'none'");
        reply.header('X-Frame-Options', 'DENY');
      }
    });
  },
  { name: 'security-headers' },
);
