import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { BffChannel } from '../../../../contract/session.ts';
import { useEmbed } from '@/lib/embed-context.tsx';
import { Freshness } from '@/lib/event-stream.ts';
import { applyToChannels } from '../api/channels-cache.ts';
import { channelKeys } from '../api/get-channels.ts';
import type { LiveQr } from '../api/get-qr.ts';
import { transportKeys } from '../api/get-transports.ts';
import { useConnectUi } from '../store/panel.ts';

/**
 * Writes the event stream into the query cache: channel statuses and tiers into the list, new codes into each
 * channel's QR; what the list cannot place (or a new status, whose profile the event lacks) makes it read again,
 * the read started after the event so that it never undoes it. The host hears `channel_connected` once a channel
 * is active.
 */
export function useConnectStream(): void {
  const ctx = useEmbed();
  const queryClient = useQueryClient();
  const gone = useConnectUi((s) => s.gone);
  useEffect(() => {
    const statuses = new Freshness();
    const offEvents = ctx.onEvent((event) => {
      if (event.name === 'channel.qr_update') {
        const key = channelKeys.qr(event.payload.channel_id);
        // A read begun before the push must not bring back an older code.
        void queryClient.cancelQueries({ queryKey: key }).then(() => queryClient.setQueryData<LiveQr | null>(key, event.payload));
        return;
      }
      if (event.name === 'channel.delete') gone(event.payload.channel_id);
      const list = queryClient.getQueryData<BffChannel[]>(channelKeys.all);
      const change = list ? applyToChannels(list, event, (id, position) => statuses.isNewer(id, position)) : { list, reread: true };
      if (list && change.list !== list) queryClient.setQueryData(channelKeys.all, change.list);
      if (change.reread && event.name.startsWith('channel.')) void queryClient.invalidateQueries({ queryKey: channelKeys.all, exact: true });
      if (event.name === 'channel.status_update' && event.payload.status === 'active') {
        const channelId = event.payload.channel_id;
        const say = (channels: BffChannel[] | undefined) => {
          const channel = channels?.find((c) => c.channel_id === channelId);
          if (channel) ctx.bridge?.post({ type: 'channel_connected', payload: { channel_id: channelId, transport: channel.transport } });
          return channel;
        };
        if (!say(change.list)) ctx.client.channels().then(say, () => {});
      }
    });
    const offResync = ctx.onResync(() => {
      void queryClient.invalidateQueries({ queryKey: channelKeys.all });
      void queryClient.invalidateQueries({ queryKey: transportKeys.all });
    });
    return () => {
      offEvents();
      offResync();
    };
  }, [ctx, queryClient, gone]);
}
