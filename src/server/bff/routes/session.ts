import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, NullEnvelope } from '../../../contract/envelope.ts';
import { ExchangedSession, ExchangeLinkBody, SessionInfo, SessionRenewed } from '../../../contract/session.ts';
import { describeSession, exchangeLink, renewSession, revokeSession } from '../../core/embedding/sessions.ts';
import type { BffDeps } from '../deps.ts';
import { sessionOf } from '../guards.ts';
import { ok, sessionErrors } from '../reply.ts';

/** The frame's session: exchange the link, learn who it is, keep it alive, end it. */
export const sessionRoutes: FastifyPluginAsyncTypebox<BffDeps> = async (app, deps) => {
  const tags = ['bff'];

  app.post(
    '/session',
    {
      config: { session: false },
      schema: {
        tags,
        summary: 'Exchange an iframe link for a session',
        description:
          'Once per link. Expired, tampered and used links get 401. Keep the token in memory (not in cookies or storage). The answer carries the session’s details (`session`, as GET /bff/session tells them), so the frame needs no second request to start.',
        security: [],
        body: ExchangeLinkBody,
        response: { 201: Envelope(ExchangedSession), ...sessionErrors },
      },
    },
    async (request, reply) => {
      const { token, expires_at, session } = await exchangeLink(deps, request.body.link);
      return reply.code(201).send(ok(deps.clock, { token, expires_at, session: await describeSession(deps, session) }));
    },
  );

  app.get(
    '/session',
    { schema: { tags, summary: 'Who the frame is and what it may touch', response: { 200: Envelope(SessionInfo), ...sessionErrors } } },
    async (request) => ok(deps.clock, await describeSession(deps, sessionOf(request))),
  );

  app.post(
    '/session/renew',
    {
      schema: {
        tags,
        summary: 'Keep the session alive',
        description: 'Moves the expiry a full lifetime ahead (never past 12 hours after the exchange).',
        response: { 200: Envelope(SessionRenewed), ...sessionErrors },
      },
    },
    async (request) => ok(deps.clock, { expires_at: (await renewSession(deps, sessionOf(request))).toISOString() }),
  );

  app.delete(
    '/session',
    { schema: { tags, summary: 'End the session and its realtime connections', response: { 200: NullEnvelope, ...sessionErrors } } },
    async (request) => {
      await revokeSession(deps, sessionOf(request));
      return ok(deps.clock, null);
    },
  );
};
