import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { transports } from '../../../contract/channels.ts';
import { Envelope } from '../../../contract/envelope.ts';
import { BffChannel, BffTransport } from '../../../contract/session.ts';
import type { ChannelRecord } from '../../core/channels/ports.ts';
import type { TransportRulesRegistry } from '../../core/channels/transport-rules.ts';
import type { BffDeps } from '../deps.ts';
import { sessionOf } from '../guards.ts';
import { ok, sessionErrors } from '../reply.ts';

function toBffChannel(c: ChannelRecord, rules: TransportRulesRegistry): BffChannel {
  return {
    channel_id: c.id,
    transport: c.transport,
    status: c.state.status,
    reason: c.state.reason,
    name: c.name,
    phone: c.phone,
    username: c.username,
    ...(c.authUrl && c.state.status === 'init' ? { url: c.authUrl } : {}),
    capabilities: rules[c.transport].capabilities,
  };
}

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
      const session = sessionOf(request);
      const channels = await deps.store.channels.list(session.accountId);
      return ok(deps.clock, channels.map((c) => toBffChannel(c, deps.rules)));
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
