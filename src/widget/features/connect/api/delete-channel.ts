import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BffChannel } from '../../../../contract/session.ts';
import type { BffClient } from '@/lib/bff-client.ts';
import { useEmbed } from '@/lib/embed-context.tsx';
import { useConnectUi } from '../store/panel.ts';
import { channelKeys, channelPath } from './get-channels.ts';

/** DELETE /bff/channels/{id}: its chats stay for history unless `deleteChats`. */
export const deleteChannel = (client: BffClient, channelId: string, deleteChats: boolean): Promise<null> =>
  client.request<null>('DELETE', `${channelPath(channelId)}${deleteChats ? '?delete_chats=true' : ''}`);

/** Deletes a channel and takes it out of the list (and out of any read of the list still on its way). */
export function useDeleteChannel() {
  const { client } = useEmbed();
  const queryClient = useQueryClient();
  const gone = useConnectUi((s) => s.gone);
  return useMutation({
    mutationFn: ({ channelId, deleteChats }: { channelId: string; deleteChats: boolean }) => deleteChannel(client, channelId, deleteChats),
    onSuccess: async (_answer, { channelId }) => {
      gone(channelId);
      await queryClient.cancelQueries({ queryKey: channelKeys.all, exact: true });
      queryClient.setQueryData(channelKeys.all, (list: BffChannel[] | undefined) => list?.filter((c) => c.channel_id !== channelId));
    },
  });
}
