import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { authorizationReturned, type AuthorizationReturn } from '../../core/channels/authorization-return.ts';
import type { ChannelDeps } from '../../core/channels/ports.ts';
import { AppError } from '../../core/errors.ts';
import { htmlPage } from '../html-page.ts';

/**
 * `GET /hooks/<transport>/authorized`: where a platform's authorization page sends a channel's owner back (wapi's
 * Embedded Signup, from Meta's login dialog, with `code` and `state`). The owner reads the answer: a small page
 * saying the number is connected, or why not (the channel then stays as it was). Nothing here needs a token: the
 * state, signed by the gateway, is the proof. The page is not cached, and names no secret.
 */
export const authorizationReturnRoutes: FastifyPluginAsyncTypebox<{ returns: Readonly<Record<string, AuthorizationReturn>>; channels: ChannelDeps }> = async (app, deps) => {
  app.get(
    '/hooks/:transport/authorized',
    { schema: { hide: true, params: Type.Object({ transport: Type.String({ maxLength: 32 }) }) } },
    async (request, reply) => {
      const returning = Object.hasOwn(deps.returns, request.params.transport) ? deps.returns[request.params.transport] : undefined;
      if (!returning) return reply.code(404).send({ error: 'NOT_FOUND', description: 'No such page' });
      const answer = (status: number, title: string, text: string, links: readonly { label: string; url: string }[] = []) =>
        reply.code(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').send(htmlPage(title, text, links));
      let outcome;
      try {
        outcome = await authorizationReturned(deps.channels, returning, request.query as Record<string, unknown>);
      } catch (err) {
        if (!(err instanceof AppError) || err.code !== 'SERVICE_UNAVAILABLE') throw err;
        request.log.warn({ err }, 'an authorization could not be completed: the platform failed');
        return answer(503, 'Not connected yet', `${returning.platform ?? 'Meta'} could not be reached just now. Nothing was changed: open the link again in a moment.`);
      }
      if ('refused' in outcome) return answer(400, 'Not connected', outcome.refused);
      if ('choose' in outcome) return answer(200, outcome.choose.title, outcome.choose.text, outcome.choose.options);
      const channel = outcome.connected;
      if (returning.connectedPage) {
        const page = returning.connectedPage(channel);
        return answer(200, page.title, page.text);
      }
      return answer(200, 'Number connected', `The WhatsApp Business number +${channel.phone ?? ''} (${channel.name ?? ''}) is connected. You can close this window.`);
    },
  );
};
