import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChannelCreated } from '../../../../contract/channel-api.ts';
import type { Transport } from '../../../../contract/channels.ts';
import type { BffChannel } from '../../../../contract/session.ts';
import type { BffClient } from '@/lib/bff-client.ts';
import { useEmbed } from '@/lib/embed-context.tsx';
import { channelKeys, getChannel, withChannel } from './get-channels.ts';

/** POST /bff/channels: QR transports start waiting for a scan, bots connect at once, wapi and vk answer `url`. */
export const createChannel = async (client: BffClient, transport: Transport, credentials: Record<string, string>): Promise<ChannelCreated> =>
  (await client.request<ChannelCreated[]>('POST', '/channels', { transport, credentials }))[0]!;

/** Creates a channel and puts it in the list at once (the stream tells its steps from then on). */
export function useCreateChannel() {
  const { client } = useEmbed();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ transport, credentials }: { transport: Transport; credentials: Record<string, string> }) => {
      const created = await createChannel(client, transport, credentials);
      const channel = await getChannel(client, created.channel_id).catch(() => undefined);
      if (channel) queryClient.setQueryData(channelKeys.all, (list: BffChannel[] | undefined) => withChannel(list, channel));
      return created;
    },
  });
}
