import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TransportCapabilities } from '../../../../contract/channels.ts';
import type { BffChannel } from '../../../../contract/session.ts';
import { useEmbed } from '@/lib/embed-context.tsx';

export const channelKeys = { all: ['channels'] as const };

const capabilitiesOf = (channels: BffChannel[]): ReadonlyMap<string, TransportCapabilities> => new Map(channels.map((c) => [c.channel_id, c.capabilities]));

/** GET /bff/channels: the account's channels, for what each can do (edit window, deleting, text limit) and reach. */
export function useChannels() {
  const { client } = useEmbed();
  return useQuery(queryOptions({ queryKey: channelKeys.all, queryFn: () => client.channels() }));
}

/** What each channel of the account can do, to offer only what works (the gateway still checks every call). */
export function useCapabilities(): ReadonlyMap<string, TransportCapabilities> {
  const { client } = useEmbed();
  return useQuery({ queryKey: channelKeys.all, queryFn: () => client.channels(), select: capabilitiesOf }).data ?? empty;
}
const empty: ReadonlyMap<string, TransportCapabilities> = new Map();
