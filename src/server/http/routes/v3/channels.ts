import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Channel } from '../../../../contract/channel-api.ts';
import type { V3Channel, V3ChannelState, V3Transport } from '../../../../contract/v3/channels.ts';
import { V3ChannelList } from '../../../../contract/v3/channels.ts';
import { v3Errors } from '../../../../contract/v3/errors.ts';
import { listChannels } from '../../../core/channels/channel-queries.ts';
import type { ChannelDeps } from '../../../core/channels/ports.ts';
import { v3CallerOf } from './caller.ts';

/** Our status and reason in the channel list's v3 spelling (the one live clients compare against). */
function v3State(channel: Channel): V3ChannelState {
  if (channel.status === 'active') return 'active';
  if (channel.status === 'init') return channel.reason === 'wait_for_password' ? 'waitForPassword' : channel.reason === 'qr' ? 'qridle' : 'init';
  switch (channel.reason) {
    case 'not_enough_money':
      return 'notEnoughMoney';
    case 'blocked':
    case 'rejected':
    case 'unauthorized':
    case 'foreignphone':
    case 'qridle':
    case 'openelsewhere':
      return channel.reason;
    default:
      return 'disabled';
  }
}

const v3Transport = (transport: Channel['transport']): V3Transport => (transport === 'instAPI' ? 'instagram' : transport);

/** One channel as `GET /v3/channels` lists it. */
export function toV3Channel(channel: Channel): V3Channel {
  return {
    channelId: channel.channel_id,
    transport: v3Transport(channel.transport),
    plainId: channel.phone ?? channel.username ?? channel.messenger_id ?? '',
    state: v3State(channel),
    name: channel.name ?? '',
  };
}

export const v3ChannelRoutes: FastifyPluginAsyncTypebox<ChannelDeps> = async (app, deps) => {
  app.get(
    '/channels',
    {
      config: { access: 'sidecar' },
      schema: {
        tags: ['v3 channels'],
        summary: 'List channels',
        description: 'A bare array. Channels are connected and removed through the /v2 face or the connect frame; v3 only reads them.',
        response: { 200: V3ChannelList, ...v3Errors },
      },
    },
    async (request) => (await listChannels(deps, v3CallerOf(request).accountId)).map(toV3Channel),
  );
};
