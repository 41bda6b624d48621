import type { Channel } from '../../../contract/channel-api.ts';
import type { ChannelDeps, ChannelRecord } from './ports.ts';
import { legacyState } from './state-machine.ts';

/** The API's picture of a channel: never its credentials, always its tariff and what its transport can do. */
export function toChannel(channel: ChannelRecord, { rules, plan }: Pick<ChannelDeps, 'rules' | 'plan'>): Channel {
  return {
    channel_id: channel.id,
    transport: channel.transport,
    state: legacyState(channel.state),
    status: channel.state.status,
    reason: channel.state.reason,
    phone: channel.phone,
    username: channel.username,
    messenger_id: channel.messengerId,
    name: channel.name,
    // The authorization URL matters only while it must still be followed.
    ...(channel.authUrl && channel.state.status === 'init' ? { url: channel.authUrl } : {}),
    tier: channel.tier,
    tariff: { plan, paid: channel.paid },
    capabilities: rules[channel.transport].capabilities,
  };
}
