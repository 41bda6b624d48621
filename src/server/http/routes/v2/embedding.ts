import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope } from '../../../../contract/envelope.ts';
import { EmbeddingOrigins, RevokedSessions, RevokeSessionsQuery } from '../../../../contract/iframe-links.ts';
import { listOrigins, replaceOrigins } from '../../../core/embedding/origins.ts';
import type { EmbeddingDeps } from '../../../core/embedding/ports.ts';
import { revokeSessions } from '../../../core/embedding/sessions.ts';
import { envelope } from '../../envelope.ts';
import { accountOf } from '../../plugins/auth.ts';
import { authErrors } from '../errors.ts';
import { limitEntities } from '../entity-limit.ts';

/** Where the frames may be embedded, and the frames' open sessions. */
export const embeddingRoutes: FastifyPluginAsyncTypebox<EmbeddingDeps> = async (app, deps) => {
  const tags = ['embedding'];

  app.get(
    '/embedding/origins',
    { schema: { tags, summary: 'Origins allowed to embed the frames', response: { 200: Envelope(EmbeddingOrigins), ...authErrors } } },
    async (request) => envelope(deps.clock, { origins: await listOrigins(deps, accountOf(request).accountId) }),
  );

  app.put(
    '/embedding/origins',
    {
      preValidation: limitEntities('origins'),
      schema: {
        tags,
        summary: 'Replace the allowed origins',
        description:
          'Exact origins (`https://crm.example.com`, `https://crm.example.com:8443`; plain http only for localhost). ' +
          "They become the frame page's `Content-Security-Policy: frame-ancestors`; with none, no page may embed the frames.",
        body: EmbeddingOrigins,
        response: { 200: Envelope(EmbeddingOrigins), ...authErrors },
      },
    },
    async (request) => envelope(deps.clock, { origins: await replaceOrigins(deps, accountOf(request).accountId, request.body.origins) }),
  );

  app.delete(
    '/embedding/sessions',
    {
      schema: {
        tags,
        summary: "End the frames' sessions",
        description: 'Ends the open sessions of one CRM user (`user_id`), or every open session of the account; their frames disconnect at once.',
        querystring: RevokeSessionsQuery,
        response: { 200: Envelope(RevokedSessions), ...authErrors },
      },
    },
    async (request) =>
      envelope(deps.clock, { revoked: await revokeSessions(deps, accountOf(request).accountId, { userId: request.query.user_id }) }),
  );
};
