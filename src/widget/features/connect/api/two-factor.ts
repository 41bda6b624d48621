import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiTransport } from '../../../../contract/channel-api.ts';
import type { BffChannel } from '../../../../contract/session.ts';
import type { BffClient } from '@/lib/bff-client.ts';
import { useEmbed } from '@/lib/embed-context.tsx';
import { channelKeys, channelPath, getChannel, withChannel } from './get-channels.ts';

/** POST /bff/channels/{id}/auth/2fa: a wrong password is 400 TWO_FACTOR_CODE_INVALID. */
export const submitTwoFactor = (client: BffClient, channelId: string, transport: ApiTransport, password: string): Promise<null> =>
  client.request<null>('POST', `${channelPath(channelId)}/auth/2fa`, { two_factor_code: password, transport });

/** The account's cloud password; the channel is read again at once (the stream brings `active` too). */
export function useTwoFactor(channelId: string, transport: ApiTransport) {
  const { client } = useEmbed();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (password: string) => {
      await submitTwoFactor(client, channelId, transport, password);
      const channel = await getChannel(client, channelId).catch(() => undefined);
      if (channel) queryClient.setQueryData(channelKeys.all, (list: BffChannel[] | undefined) => withChannel(list, channel));
    },
  });
}
