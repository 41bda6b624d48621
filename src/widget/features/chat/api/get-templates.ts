import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Template } from '../../../../contract/templates.ts';
import type { BffClient } from '@/lib/bff-client.ts';
import { useEmbed } from '@/lib/embed-context.tsx';
import { sendableTemplates } from '../store/template-form.ts';
import { queryString } from './query.ts';

export const templateKeys = { channel: (channelId: string) => ['templates', channelId] as const };

/** GET /bff/templates: the business-API templates of one channel, whatever their status. */
export const getTemplates = (client: BffClient, channelId: string): Promise<Template[]> =>
  client.request<Template[]>('GET', `/templates${queryString({ channel_id: channelId })}`);

/**
 * The templates a chat's channel can send now, read each time the form opens (moderation changes them between
 * uses, so they are not kept once it closes).
 */
export function useTemplates(channelId: string) {
  const { client } = useEmbed();
  return useQuery(
    queryOptions({
      queryKey: templateKeys.channel(channelId),
      queryFn: () => getTemplates(client, channelId),
      select: (templates) => sendableTemplates(templates, channelId),
      staleTime: 0,
      gcTime: 0,
    }),
  );
}
