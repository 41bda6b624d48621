import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope } from '../../../contract/envelope.ts';
import { Template, TemplatesQuery } from '../../../contract/templates.ts';
import { listTemplates } from '../../core/templates/templates.ts';
import type { BffDeps } from '../deps.ts';
import { assertChatsSession, sessionOf } from '../guards.ts';
import { ok, sessionErrors } from '../reply.ts';

/** Business-API templates to compose with in the chat frame: the same list as GET /v2/templates. */
export const templateRoutes: FastifyPluginAsyncTypebox<BffDeps> = async (app, deps) => {
  app.get(
    '/templates',
    {
      schema: {
        tags: ['bff'],
        summary: "The account's business-API templates",
        description: 'Of every wapi channel, or of `channel_id` only (another account’s channel: 404 CHANNEL_NOT_FOUND). Only APPROVED ones can be sent.',
        querystring: TemplatesQuery,
        response: { 200: Envelope(Type.Array(Template)), ...sessionErrors },
      },
    },
    async (request) => {
      const session = sessionOf(request);
      assertChatsSession(session);
      return ok(deps.clock, await listTemplates(deps, session.accountId, request.query.channel_id));
    },
  );
};
