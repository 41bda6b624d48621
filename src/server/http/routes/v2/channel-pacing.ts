import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ChannelIdParams } from '../../../../contract/channel-api.ts';
import { Envelope } from '../../../../contract/envelope.ts';
import { ChannelPacing, PacingPatchBody } from '../../../../contract/pacing.ts';
import { getPacing, updatePacing } from '../../../core/pacing/channel-pacing.ts';
import type { ChannelDeps } from '../../../core/channels/ports.ts';
import { accountOf } from '../../plugins/auth.ts';
import { envelope } from '../../envelope.ts';
import { withNotFound } from '../errors.ts';

/**
 * The `pacing` extension of personal channels (whatsapp, tgapi): warm-up and daily caps, first-contact caps, gaps,
 * quiet hours and typing, with the channel's queue now (docs/whatsapp-personal.md, "Pacing").
 */
export const channelPacingRoutes: FastifyPluginAsyncTypebox<ChannelDeps> = async (app, deps) => {
  const tags = ['channels'];
  const params = ChannelIdParams;
  const response = { 200: Envelope(ChannelPacing), ...withNotFound };

  app.get(
    '/channels/:channel_id/pacing',
    {
      config: { access: 'sidecar' },
      schema: {
        tags,
        summary: 'Get a personal channel’s pacing (extension)',
        description: 'The profile (defaults with this channel’s changes) and the queue now: its length, how many sends are held, the next send time, the day’s counts and caps.',
        params,
        response,
      },
    },
    async (request) => envelope(deps.clock, await getPacing(deps, accountOf(request).accountId, request.params.channel_id)),
  );

  app.patch(
    '/channels/:channel_id/pacing',
    {
      schema: {
        tags,
        summary: 'Change a personal channel’s pacing (extension)',
        description: 'Changes the fields given; the others keep their values. Applies from the channel’s next send.',
        params,
        body: PacingPatchBody,
        response,
      },
    },
    async (request) => envelope(deps.clock, await updatePacing(deps, accountOf(request).accountId, request.params.channel_id, request.body)),
  );
};
