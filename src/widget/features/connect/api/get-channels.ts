import { queryOptions, useQuery } from '@tanstack/react-query';
import type { BffChannel } from '../../../../contract/session.ts';
import type { BffClient } from '@/lib/bff-client.ts';
import { useEmbed } from '@/lib/embed-context.tsx';

export const channelKeys = {
  all: ['channels'] as const,
  qr: (channelId: string) => ['channels', channelId, 'qr'] as const,
};

export const channelPath = (channelId: string) => `/channels/${encodeURIComponent(channelId)}`;

/** GET /bff/channels/{id}: one channel, as in the list. */
export const getChannel = async (client: BffClient, channelId: string): Promise<BffChannel | undefined> =>
  (await client.request<BffChannel[]>('GET', channelPath(channelId)))[0];

export const channelsQuery = (client: BffClient) => queryOptions({ queryKey: channelKeys.all, queryFn: () => client.channels() });

/** The account's channels (GET /bff/channels), kept current by the stream. */
export function useChannelList() {
  const { client } = useEmbed();
  return useQuery(channelsQuery(client));
}

/** A channel in the list replaced (or added) by one the gateway answered with. */
export const withChannel = (list: BffChannel[] | undefined, channel: BffChannel): BffChannel[] | undefined =>
  list && (list.some((c) => c.channel_id === channel.channel_id) ? list.map((c) => (c.channel_id === channel.channel_id ? channel : c)) : [...list, channel]);
