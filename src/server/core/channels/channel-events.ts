import type { Tier } from '../../../contract/channels.ts';
import { recordEvent } from '../events/record-event.ts';
import type { Clock, TransactionScope } from '../ports.ts';
import type { QrPlatform } from './transport-rules.ts';
import type { ChannelRecord } from './ports.ts';

/** Every event of a channel shares one ordering key, so a CRM sees its changes in the order they happened. */
const orderingKey = (channelId: string) => `channel:${channelId}`;

export function channelLifecycleEvent(tx: TransactionScope, clock: Clock, channel: ChannelRecord, name: 'channel.create' | 'channel.delete') {
  return recordEvent(tx, clock, {
    accountId: channel.accountId,
    name,
    orderingKey: orderingKey(channel.id),
    payload: { channel_id: channel.id, timestamp: clock.now().getTime() },
  });
}

export function channelStatusEvent(tx: TransactionScope, clock: Clock, channel: ChannelRecord) {
  return recordEvent(tx, clock, {
    accountId: channel.accountId,
    name: 'channel.status_update',
    orderingKey: orderingKey(channel.id),
    payload: { channel_id: channel.id, status: channel.state.status, reason: channel.state.reason },
  });
}

export function channelQrEvent(tx: TransactionScope, clock: Clock, channel: ChannelRecord, qrCode: string, platform: QrPlatform) {
  return recordEvent(tx, clock, {
    accountId: channel.accountId,
    name: 'channel.qr_update',
    orderingKey: orderingKey(channel.id),
    payload: { channel_id: channel.id, qr_code: qrCode, platform },
  });
}

export function channelTierEvent(tx: TransactionScope, clock: Clock, channel: ChannelRecord, tier: Tier) {
  return recordEvent(tx, clock, {
    accountId: channel.accountId,
    name: 'channel.waba_tier_update',
    orderingKey: orderingKey(channel.id),
    payload: { channel_id: channel.id, tier },
  });
}
