import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  ChannelCreated,
  ChannelIdParams,
  DeleteChannelQuery,
  FrameCreateChannelBody,
  PairingCode,
  PairingCodeBody,
  ReinitChannelBody,
  TwoFactorBody,
} from '../../../contract/channel-api.ts';
import { transports } from '../../../contract/channels.ts';
import { Envelope, NullEnvelope } from '../../../contract/envelope.ts';
import { ErrorBody } from '../../../contract/errors.ts';
import { BffChannel, BffChannelQr, BffTransport } from '../../../contract/session.ts';
import { requestPairingCode, submitTwoFactor } from '../../core/channels/channel-auth.ts';
import { deleteChannel, getChannel, listChannels } from '../../core/channels/channel-queries.ts';
import { createChannel, reinitChannel } from '../../core/channels/connect-channel.ts';
import { currentQr } from '../../core/channels/current-qr.ts';
import type { BffDeps } from '../deps.ts';
import { assertChannelsSession, sessionOf } from '../guards.ts';
import { ok, sessionErrors } from '../reply.ts';

const withConflict = { ...sessionErrors, 409: ErrorBody } as const;

/**
 * Channels as the frames need them: the chat frame filters and composes by them, the connect frame lists,
 * connects and reconnects them. Reading is open to both kinds of session; the connect operations belong to a
 * channels session (a chats session gets 403) and run the same channel use-cases as /v2/channels, within the
 * session's account (another account's channel is not found).
 */
export const channelRoutes: FastifyPluginAsyncTypebox<BffDeps> = async (app, deps) => {
  const tags = ['bff'];
  const params = ChannelIdParams;
  const Channels = Envelope(Type.Array(BffChannel));
  /** The account of a channels session; any other session is refused. */
  const connectingAccount = (request: Parameters<typeof sessionOf>[0]) => {
    const session = sessionOf(request);
    assertChannelsSession(session);
    return session.accountId;
  };

  app.get(
    '/channels',
    { schema: { tags, summary: "The account's channels with what each transport can do", response: { 200: Channels, ...sessionErrors } } },
    async (request) => {
      // The same view as GET /v2/channels, overdue QR codes brought up to date.
      return ok(deps.clock, await listChannels(deps.channels, sessionOf(request).accountId));
    },
  );

  app.get(
    '/channels/:channel_id',
    { schema: { tags, summary: 'One channel of the account, as in the list', params, response: { 200: Channels, ...sessionErrors } } },
    async (request) => ok(deps.clock, await getChannel(deps.channels, sessionOf(request).accountId, request.params.channel_id)),
  );

  app.get(
    '/transports',
    { schema: { tags, summary: 'Every transport and what its channels can do', response: { 200: Envelope(Type.Array(BffTransport)), ...sessionErrors } } },
    async () =>
      ok(
        deps.clock,
        // The frame connects every transport: those of the API, and VK, which connects only here.
        transports.map((t) => ({ transport: t, creatable: (deps.rules[t].creatableByApi || deps.rules[t].capabilities.connect === 'iframe') && deps.channels.driver.connects(t), capabilities: deps.rules[t].capabilities })),
      ),
  );

  app.post(
    '/channels',
    {
      schema: {
        tags,
        summary: 'Connect a channel (connect frame)',
        description:
          'As POST /v2/channels: QR transports start in `init`/`qr` (the code arrives as `channel.qr_update`), bot tokens connect at once, ' +
          'wapi and vk return `url` (the page that authorizes the number or the VK community). VK connects only here.',
        body: FrameCreateChannelBody,
        response: { 201: Envelope(Type.Array(ChannelCreated)), ...sessionErrors },
      },
    },
    async (request, reply) => reply.code(201).send(ok(deps.clock, await createChannel(deps.channels, connectingAccount(request), request.body))),
  );

  app.get(
    '/channels/:channel_id/qr',
    {
      schema: {
        tags,
        summary: 'The QR code a connecting channel shows now (connect frame)',
        description: 'For a frame that opens after the last `channel.qr_update`. No live code: 409 CHANNEL_QR_EXPIRED (reinit to start again).',
        params,
        response: { 200: Envelope(BffChannelQr), ...withConflict },
      },
    },
    async (request) => ok(deps.clock, await currentQr(deps.channels, connectingAccount(request), request.params.channel_id)),
  );

  app.post(
    '/channels/:channel_id/pairing-code',
    {
      schema: {
        tags,
        summary: 'Get a WhatsApp pairing code instead of scanning (connect frame)',
        description: 'Only while a QR is live; otherwise 409 CHANNEL_QR_EXPIRED.',
        params,
        body: PairingCodeBody,
        response: { 200: Envelope(Type.Array(PairingCode)), ...withConflict },
      },
    },
    async (request) => ok(deps.clock, await requestPairingCode(deps.channels, connectingAccount(request), request.params.channel_id, request.body)),
  );

  app.post(
    '/channels/:channel_id/auth/2fa',
    {
      schema: {
        tags,
        summary: 'Give the two-factor password (connect frame)',
        description: 'Only in `init`/`wait_for_password` (else 409 CHANNEL_WRONG_STATUS); a wrong code answers 400 TWO_FACTOR_CODE_INVALID.',
        params,
        body: TwoFactorBody,
        response: { 200: NullEnvelope, ...withConflict },
      },
    },
    async (request) => ok(deps.clock, await submitTwoFactor(deps.channels, connectingAccount(request), request.params.channel_id, request.body)),
  );

  app.post(
    '/channels/:channel_id/reinit',
    {
      schema: {
        tags,
        summary: 'Reconnect a channel (connect frame)',
        description: 'As POST /v2/channels/{id}/reinit: `active`, or `init` with a new QR.',
        params,
        body: ReinitChannelBody,
        response: { 200: Channels, ...withConflict },
      },
    },
    async (request) => ok(deps.clock, await reinitChannel(deps.channels, connectingAccount(request), request.params.channel_id, request.body.credentials, { inFrame: true })),
  );

  app.delete(
    '/channels/:channel_id',
    {
      schema: {
        tags,
        summary: 'Delete a channel (connect frame)',
        description: 'With `delete_chats=true` its chats and messages go too; otherwise they stay for history and export.',
        params,
        querystring: DeleteChannelQuery,
        response: { 200: NullEnvelope, ...sessionErrors },
      },
    },
    async (request) =>
      ok(deps.clock, await deleteChannel(deps.channels, connectingAccount(request), request.params.channel_id, request.query.delete_chats ?? false)),
  );
};
