import type { ApiTransport, ChannelCreated } from '../../../../contract/channel-api.ts';
import type { Transport } from '../../../../contract/channels.ts';
import type { BffChannel, BffChannelQr } from '../../../../contract/session.ts';
import type { BffClient } from '../../../lib/bff-client.ts';

/**
 * The connect routes of /bff, one function per endpoint (the list and the transports come with the client).
 * Every call answers in the gateway's envelope; a refusal is a BffError with its code and `data.fields`.
 */
const path = (channelId: string) => `/channels/${encodeURIComponent(channelId)}`;

/** GET /bff/channels/{id}: one channel, as in the list. */
export const getChannel = async (client: BffClient, channelId: string): Promise<BffChannel | undefined> =>
  (await client.request<BffChannel[]>('GET', path(channelId)))[0];

/** POST /bff/channels: QR transports start waiting for a scan, bots connect at once, wapi and vk answer `url`. */
export const createChannel = async (client: BffClient, transport: Transport, credentials: Record<string, string>): Promise<ChannelCreated> =>
  (await client.request<ChannelCreated[]>('POST', '/channels', { transport, credentials }))[0]!;

/** GET /bff/channels/{id}/qr: the live code (409 CHANNEL_QR_EXPIRED when there is none). */
export const getQr = (client: BffClient, channelId: string): Promise<BffChannelQr> => client.request<BffChannelQr>('GET', `${path(channelId)}/qr`);

/** POST /bff/channels/{id}/reinit: connects the channel again; QR transports show a new code. */
export const reinitChannel = async (client: BffClient, channelId: string, credentials: Record<string, string>): Promise<BffChannel | undefined> =>
  (await client.request<BffChannel[]>('POST', `${path(channelId)}/reinit`, { credentials }))[0];

/** POST /bff/channels/{id}/pairing-code: whatsapp's 8-character code, while a QR is live. */
export const requestPairingCode = async (client: BffClient, channelId: string, phone: string): Promise<{ pairing_code: string; pairing_phone: string }> =>
  (await client.request<{ pairing_code: string; pairing_phone: string }[]>('POST', `${path(channelId)}/pairing-code`, { pairing_phone: phone, transport: 'whatsapp' }))[0]!;

/** POST /bff/channels/{id}/auth/2fa: a wrong password is 400 TWO_FACTOR_CODE_INVALID. */
export const submitTwoFactor = (client: BffClient, channelId: string, transport: ApiTransport, password: string): Promise<null> =>
  client.request<null>('POST', `${path(channelId)}/auth/2fa`, { two_factor_code: password, transport });

/** DELETE /bff/channels/{id}: its chats stay for history unless `deleteChats`. */
export const deleteChannel = (client: BffClient, channelId: string, deleteChats: boolean): Promise<null> =>
  client.request<null>('DELETE', `${path(channelId)}${deleteChats ? '?delete_chats=true' : ''}`);
