import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  Channel,
  ChannelCreated,
  ChannelIdParams,
  CreateChannelBody,
  DeleteChannelQuery,
  PairingCode,
  PairingCodeBody,
  ReinitChannelBody,
  TwoFactorBody,
} from '../../../../contract/channel-api.ts';
import { Envelope, NullEnvelope } from '../../../../contract/envelope.ts';
import { requestPairingCode, submitTwoFactor } from '../../../core/channels/channel-auth.ts';
import { deleteChannel, getChannel, listChannels } from '../../../core/channels/channel-queries.ts';
import { createChannel, reinitChannel } from '../../../core/channels/connect-channel.ts';
import type { ChannelDeps } from '../../../core/channels/ports.ts';
import { ErrorBody } from '../../../../contract/errors.ts';
import { accountOf } from '../../plugins/auth.ts';
import { envelope } from '../../envelope.ts';
import { authErrors, withNotFound } from '../errors.ts';

const withConflict = { ...withNotFound, 409: ErrorBody } as const;

/** Channels of the calling account: connect, reconnect, authorize, delete. */
export const channelRoutes: FastifyPluginAsyncTypebox<ChannelDeps> = async (app, deps) => {
  const tags = ['channels'];
  const params = ChannelIdParams;
  const Channels = Envelope(Type.Array(Channel));

  app.post(
    '/channels',
    {
      schema: {
        tags,
        summary: 'Connect a channel',
        description:
          'QR transports (whatsapp, tgapi, viber, max) start in `init`/`qr` and send `channel.qr_update`; telegram and maxbot ' +
          'become `active` with a valid bot token; wapi returns `url` to follow. `instagram` without credentials makes an instAPI channel and returns ' +
          'the Facebook Login `url` its owner follows. A refused credential answers 400 naming the field, and nothing is stored.',
        body: CreateChannelBody,
        response: { 201: Envelope(Type.Array(ChannelCreated)), ...authErrors },
      },
    },
    async (request, reply) => reply.code(201).send(envelope(deps.clock, await createChannel(deps, accountOf(request).accountId, request.body))),
  );

  app.get(
    '/channels',
    { config: { access: 'sidecar' }, schema: { tags, summary: 'List channels', response: { 200: Channels, ...authErrors } } },
    async (request) => envelope(deps.clock, await listChannels(deps, accountOf(request).accountId)),
  );

  app.get(
    '/channels/:channel_id',
    { config: { access: 'sidecar' }, schema: { tags, summary: 'Get a channel with its tariff', params, response: { 200: Channels, ...withNotFound } } },
    async (request) => envelope(deps.clock, await getChannel(deps, accountOf(request).accountId, request.params.channel_id)),
  );

  app.delete(
    '/channels/:channel_id',
    {
      schema: {
        tags,
        summary: 'Delete a channel',
        description: 'With `delete_chats=true` its chats and messages go too; otherwise they stay for history and export.',
        params,
        querystring: DeleteChannelQuery,
        response: { 200: NullEnvelope, ...withNotFound },
      },
    },
    async (request) =>
      envelope(deps.clock, await deleteChannel(deps, accountOf(request).accountId, request.params.channel_id, request.query.delete_chats ?? false)),
  );

  app.post(
    '/channels/:channel_id/reinit',
    {
      schema: {
        tags,
        summary: 'Reconnect a channel',
        description: 'Valid credentials make it `active`, or `init` with a new QR. A channel unpaid answers 409 CHANNEL_WRONG_STATUS.',
        params,
        body: ReinitChannelBody,
        response: { 200: Channels, ...withConflict },
      },
    },
    async (request) => envelope(deps.clock, await reinitChannel(deps, accountOf(request).accountId, request.params.channel_id, request.body.credentials)),
  );

  app.post(
    '/channels/:channel_id/auth/2fa',
    {
      schema: {
        tags,
        summary: 'Give the two-factor password',
        description: 'Only in `init`/`wait_for_password` (else 409 CHANNEL_WRONG_STATUS); a wrong code answers 400 TWO_FACTOR_CODE_INVALID.',
        params,
        body: TwoFactorBody,
        response: { 200: NullEnvelope, ...withConflict },
      },
    },
    async (request) => envelope(deps.clock, await submitTwoFactor(deps, accountOf(request).accountId, request.params.channel_id, request.body)),
  );

  app.post(
    '/channels/:channel_id/pairing-code',
    {
      schema: {
        tags,
        summary: 'Get a WhatsApp pairing code',
        description: 'An alternative to scanning, valid only while a QR is live; otherwise 409 CHANNEL_QR_EXPIRED.',
        params,
        body: PairingCodeBody,
        response: { 200: Envelope(Type.Array(PairingCode)), ...withConflict },
      },
    },
    async (request) => envelope(deps.clock, await requestPairingCode(deps, accountOf(request).accountId, request.params.channel_id, request.body)),
  );
};
