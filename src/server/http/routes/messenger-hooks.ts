import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { MessengerHook } from '../../core/messages/ports.ts';

export interface MessengerHookDeps {
  /** By transport: what reads a platform's callbacks (live drivers only). */
  hooks: Readonly<Record<string, MessengerHook>>;
}

/**
 * `POST /hooks/<transport>/<channel id>`: where a real platform posts a channel's updates (the address its live
 * driver registered when the channel was connected). No token: each transport checks the channel's own secret.
 * A 2xx tells the platform the update is taken, so it is sent only once the update is recorded (or not wanted).
 */
export const messengerHookRoutes: FastifyPluginAsyncTypebox<MessengerHookDeps> = async (app, deps) => {
  app.post(
    '/hooks/:transport/:channel_id',
    {
      schema: {
        hide: true,
        params: Type.Object({ transport: Type.String({ maxLength: 32 }), channel_id: Type.String({ format: 'uuid' }) }),
      },
    },
    async (request, reply) => {
      const hook = Object.hasOwn(deps.hooks, request.params.transport) ? deps.hooks[request.params.transport] : undefined;
      if (!hook) return reply.code(404).send({ error: 'NOT_FOUND', description: 'No such hook' });
      const outcome = await hook({ channelId: request.params.channel_id, headers: request.headers, body: request.body });
      if (outcome === 'unauthorized') return reply.code(401).send({ error: 'UNAUTHORIZED', description: 'The channel’s secret did not match' });
      if (outcome === 'unavailable') return reply.code(503).send({ error: 'SERVICE_UNAVAILABLE', description: 'The channel cannot take updates now; send again later' });
      return reply.code(200).send({ ok: true });
    },
  );
};
