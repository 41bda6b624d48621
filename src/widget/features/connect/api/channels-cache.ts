import type { BffChannel } from '../../../../contract/session.ts';
import type { StreamEvent } from '../../../../contract/realtime.ts';

/**
 * What an event changes in the cached channel list. `reread`: the list must be read again: a channel it does not
 * hold, or a new status (the event carries no profile, and a scan or reconnect is when the messenger tells the
 * name and phone).
 */
export function applyToChannels(list: BffChannel[], event: StreamEvent, isNewer: (channelId: string, position: number) => boolean): { list: BffChannel[]; reread: boolean } {
  const listed = (id: string) => list.some((c) => c.channel_id === id);
  const change = (id: string, update: (c: BffChannel) => BffChannel) => list.map((c) => (c.channel_id === id ? update(c) : c));
  switch (event.name) {
    case 'channel.status_update': {
      const { channel_id: id, status, reason } = event.payload;
      if (!listed(id)) return { list, reread: true };
      if (!isNewer(id, event.position)) return { list, reread: false };
      // The authorization URL is wanted only until the channel is authorized.
      const next = change(id, (c) => ({ ...c, status, reason, state: reason ?? status, ...(status === 'active' ? { url: undefined } : {}) }));
      return { list: next, reread: true };
    }
    case 'channel.waba_tier_update': {
      const { channel_id: id, tier } = event.payload;
      return { list: listed(id) ? change(id, (c) => ({ ...c, tier })) : list, reread: false };
    }
    case 'channel.create':
      return { list, reread: !listed(event.payload.channel_id) };
    case 'channel.delete':
      return { list: list.filter((c) => c.channel_id !== event.payload.channel_id), reread: false };
    default:
      return { list, reread: false };
  }
}
