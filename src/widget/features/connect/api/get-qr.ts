import { useQuery } from '@tanstack/react-query';
import type { BffChannelQr } from '../../../../contract/session.ts';
import { BffError, type BffClient } from '@/lib/bff-client.ts';
import { useEmbed } from '@/lib/embed-context.tsx';
import { channelKeys, channelPath } from './get-channels.ts';

/**
 * A live code as the cache keeps it: the server's PNG, and its content where the gateway gives it (the frame then
 * draws the code itself, sharp at any size).
 */
export type LiveQr = Pick<BffChannelQr, 'qr_code' | 'platform'> & { qr_content?: string };

/** GET /bff/channels/{id}/qr: the live code, or null when there is none (409 CHANNEL_QR_EXPIRED). */
export async function getQr(client: BffClient, channelId: string): Promise<LiveQr | null> {
  try {
    return await client.request<BffChannelQr>('GET', `${channelPath(channelId)}/qr`);
  } catch (err) {
    if (err instanceof BffError && err.code === 'CHANNEL_QR_EXPIRED') return null;
    throw err;
  }
}

/**
 * The code a channel shows now: read when the screen needs it and the stream has not brought one (the frame
 * opened late, or after a reinit); every `channel.qr_update` replaces it in the cache.
 */
export function useQr(channelId: string, wanted: boolean) {
  const { client } = useEmbed();
  return useQuery({ queryKey: channelKeys.qr(channelId), queryFn: () => getQr(client, channelId), enabled: wanted, retry: false });
}
