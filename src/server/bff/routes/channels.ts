import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { transports } from '../../../contract/channels.ts';
import { Envelope } from '../../../contract/envelope.ts';
import { BffChannel, BffTransport } from '../../../contract/session.ts';
import { listChannels } from '../../core/channels/channel-queries.ts';
import type { BffDeps } from '../deps.ts';
import { sessionOf } from '../guards.ts';
import { ok, sessionErrors } from '../reply.ts';

/**
 * Channels as the frames need them: the chat frame filters and composes by them, the connect frame lists and
 * reconnects them. Reading is open to both kinds of session; the connect operations (added here as the
 * channel use-cases land) are guarded by assertChannelsSession.
 */
export const channelRoutes: FastifyPluginAsyncTypebox<BffDeps> = async (app, deps) => {
  const tags = ['bff'];

  app.get(
    '/channels',
    {
      schema: { tags, summary: "The account's channels with what each transport can do", response: { 200: Envelope(Type.Array(BffChannel)), ...sessionErrors } },
    },
    async (request) => {
      // The same view as GET /v2/channels, overdue QR codes brought up to date.
      return ok(deps.clock, await listChannels(deps.channels, sessionOf(request).accountId));
    },
  );

  app.get(
    '/transports',
    { schema: { tags, summary: 'Every transport and what its channels can do', response: { 200: Envelope(Type.Array(BffTransport)), ...sessionErrors } } },
    async () =>
      ok(
        deps.clock,
        transports.map((t) => ({ transport: t, creatable: deps.rules[t].creatableByApi, capabilities: deps.rules[t].capabilities })),
      ),
  );
};
