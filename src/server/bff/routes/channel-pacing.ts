import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ChannelIdParams } from '../../../contract/channel-api.ts';
import { Envelope } from '../../../contract/envelope.ts';
import { ChannelPacing, PacingPatchBody } from '../../../contract/pacing.ts';
import { getPacing, updatePacing } from '../../core/pacing/channel-pacing.ts';
import type { BffDeps } from '../deps.ts';
import { assertChannelsSession, sessionOf } from '../guards.ts';
import { ok, sessionErrors } from '../reply.ts';

/** A personal channel's pacing in the connect frame's channel settings: the same use-cases as /v2/channels/{id}/pacing. */
export const channelPacingRoutes: FastifyPluginAsyncTypebox<BffDeps> = async (app, deps) => {
  const tags = ['bff'];
  const params = ChannelIdParams;
  const response = { 200: Envelope(ChannelPacing), ...sessionErrors };
  const accountOf = (request: Parameters<typeof sessionOf>[0]) => {
    const session = sessionOf(request);
    assertChannelsSession(session);
    return session.accountId;
  };

  app.get(
    '/channels/:channel_id/pacing',
    { schema: { tags, summary: 'A personal channel’s pacing (connect frame)', params, response } },
    async (request) => ok(deps.clock, await getPacing(deps.channels, accountOf(request), request.params.channel_id)),
  );

  app.patch(
    '/channels/:channel_id/pacing',
    { schema: { tags, summary: 'Change a personal channel’s pacing (connect frame)', params, body: PacingPatchBody, response } },
    async (request) => ok(deps.clock, await updatePacing(deps.channels, accountOf(request), request.params.channel_id, request.body)),
  );
};
