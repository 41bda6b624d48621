import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChannelPacingBody, PacingProfileBody } from '../../../../contract/pacing.ts';
import { useEmbed } from '@/lib/embed-context.tsx';
import { channelPath } from './get-channels.ts';

const pacingKey = (channelId: string) => ['channel-pacing', channelId] as const;

/** GET /bff/channels/{id}/pacing: a personal channel's pacing profile and its queue now. */
export function useChannelPacing(channelId: string) {
  const { client } = useEmbed();
  return useQuery({ queryKey: pacingKey(channelId), queryFn: () => client.request<ChannelPacingBody>('GET', `${channelPath(channelId)}/pacing`) });
}

/** PATCH /bff/channels/{id}/pacing: changes the fields given. */
export function useSavePacing(channelId: string) {
  const { client } = useEmbed();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: Partial<PacingProfileBody>) => client.request<ChannelPacingBody>('PATCH', `${channelPath(channelId)}/pacing`, changes),
    onSuccess: (answer) => queryClient.setQueryData(pacingKey(channelId), answer),
  });
}
