import type { Channel } from '../../../contract/channel-api.ts';
import { channelLifecycleEvent } from './channel-events.ts';
import { applyTrigger, catchUpQr, channelNotFound, withChannel } from './channel-steps.ts';
import { toChannel } from './channel-view.ts';
import type { ChannelDeps, ChannelRecord } from './ports.ts';
import { qrProgress } from './qr-cycle.ts';

const qrOverdue = (channel: ChannelRecord, now: Date) =>
  channel.state.status === 'init' && channel.state.reason === 'qr' && channel.qr !== null && qrProgress(channel.qr, now).kind !== 'live';

/** Each channel as of now: an overdue QR timer is caught up before the channel is shown. */
async function caughtUp(deps: ChannelDeps, channel: ChannelRecord): Promise<ChannelRecord> {
  if (!qrOverdue(channel, deps.clock.now())) return channel;
  return withChannel(deps, channel.accountId, channel.id, async (_tx, current) => current);
}

export async function listChannels(deps: ChannelDeps, accountId: string): Promise<Channel[]> {
  const channels = await deps.store.channels.list(accountId);
  const current = [];
  for (const channel of channels) current.push(await caughtUp(deps, channel));
  return current.map((c) => toChannel(c, deps));
}

export async function getChannel(deps: ChannelDeps, accountId: string, channelId: string): Promise<Channel[]> {
  const channel = await deps.store.channels.get(accountId, channelId);
  if (!channel) throw channelNotFound(channelId);
  return [toChannel(await caughtUp(deps, channel), deps)];
}

/**
 * DELETE /v2/channels/{id}. With `delete_chats` the channel goes with its chats and messages; otherwise it
 * ends `disabled` and stays, out of the API's sight, so its history remains for the widget and the export.
 */
export async function deleteChannel(deps: ChannelDeps, accountId: string, channelId: string, deleteChats: boolean): Promise<null> {
  const deleted = await withChannel(deps, accountId, channelId, async (tx, channel) => {
    const now = deps.clock.now();
    if (deleteChats) {
      await tx.channels.remove(accountId, channelId);
    } else {
      await applyTrigger(tx, deps, channel, 'deleted', { qr: null, pairing: null });
      await tx.channels.retire(accountId, channelId, now);
    }
    await channelLifecycleEvent(tx, deps.clock, channel, 'channel.delete');
    return channel;
  });
  await deps.driver.disconnect?.(deleted).catch(() => {});
  return null;
}

/**
 * Timer job: QR number `shown` reached the end of its life. A timer of a code already replaced is stale;
 * one that fires before the code expired says so, and the queue tries again.
 */
export async function onQrTimer(deps: ChannelDeps, channelId: string, shown: number): Promise<'done' | 'early'> {
  return deps.store.transaction(async (tx) => {
    const channel = await tx.channels.getByIdForUpdate(channelId);
    if (!channel?.qr || channel.qr.shown !== shown) return 'done';
    if (!qrOverdue(channel, deps.clock.now())) return 'early';
    await catchUpQr(tx, deps, channel);
    return 'done';
  });
}
