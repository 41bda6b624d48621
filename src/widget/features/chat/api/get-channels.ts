import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TransportCapabilities } from '../../../../contract/channels.ts';
import type { BffChannel } from '../../../../contract/session.ts';
import type { BffClient } from '@/lib/bff-client.ts';
import { useEmbed } from '@/lib/embed-context.tsx';
import { useFirstListDrawn } from './get-chats.ts';

export const channelKeys = { all: ['channels'] as const };

const capabilitiesOf = (channels: BffChannel[]): ReadonlyMap<string, TransportCapabilities> => new Map(channels.map((c) => [c.channel_id, c.capabilities]));

/** GET /bff/channels: the account's channels, for what each can do (edit window, deleting, text limit) and reach. */
export const channelsQuery = (client: BffClient) => queryOptions({ queryKey: channelKeys.all, queryFn: () => client.channels() });

export function useChannels() {
  const { client } = useEmbed();
  return useQuery(channelsQuery(client));
}

/**
 * What each channel of the account can do, to offer only what works (the gateway still checks every call). Read
 * by the screen once its chat list is drawn; an opened chat reads the channels at once (useChannels).
 */
export function useCapabilities(): ReadonlyMap<string, TransportCapabilities> {
  const { client } = useEmbed();
  return useQuery({ ...channelsQuery(client), select: capabilitiesOf, enabled: useFirstListDrawn() }).data ?? empty;
}
const empty: ReadonlyMap<string, TransportCapabilities> = new Map();
