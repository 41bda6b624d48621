import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BffChannel } from '../../../../contract/session.ts';
import type { BffClient } from '@/lib/bff-client.ts';
import { useEmbed } from '@/lib/embed-context.tsx';
import { channelKeys, channelPath, withChannel } from './get-channels.ts';

/** POST /bff/channels/{id}/reinit: connects the channel again; QR transports show a new code. */
export const reinitChannel = async (client: BffClient, channelId: string, credentials: Record<string, string>): Promise<BffChannel | undefined> =>
  (await client.request<BffChannel[]>('POST', `${channelPath(channelId)}/reinit`, { credentials }))[0];

/** Reinit with the credentials given (none for QR and wapi channels): the old code dies with it, the new one follows. */
export function useReinitChannel() {
  const { client } = useEmbed();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ channelId, credentials = {} }: { channelId: string; credentials?: Record<string, string> }) => reinitChannel(client, channelId, credentials),
    onMutate: async ({ channelId }) => {
      await queryClient.cancelQueries({ queryKey: channelKeys.qr(channelId) });
      queryClient.removeQueries({ queryKey: channelKeys.qr(channelId) });
    },
    onSuccess: (channel) => {
      if (channel) queryClient.setQueryData(channelKeys.all, (list: BffChannel[] | undefined) => withChannel(list, channel));
    },
  });
}
