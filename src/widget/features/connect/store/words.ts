import type { ChannelStatus, ConnectFlow, Transport } from '../../../../contract/channels.ts';

/** What an admin calls each transport. */
export const transportNames: Record<Transport, string> = {
  telegram: 'Telegram bot',
  tgapi: 'Telegram account',
  wapi: 'WhatsApp Business API',
  whatsapp: 'WhatsApp',
  instAPI: 'Instagram',
  viber: 'Viber',
  avito: 'Avito',
  max: 'MAX account',
  maxbot: 'MAX bot',
  vk: 'VK',
};

/** The app the admin opens on the phone to scan a QR of a transport. */
export const phoneApps: Partial<Record<Transport, string>> = { whatsapp: 'WhatsApp', tgapi: 'Telegram', viber: 'Viber', max: 'MAX' };

/** How a status reads in the list: the words, and whether it is fine, on its way, or needs the admin. */
export type Tone = 'ok' | 'progress' | 'off';

const initWords: Record<string, string> = {
  qr: 'Waiting for the QR code to be scanned',
  sync: 'Scanned, loading the chat history',
  wait_for_password: 'Waiting for the two-factor password',
  wait_for_code: 'Waiting for a confirmation code',
};

const disabledWords: Record<string, string> = {
  qridle: 'Off: the QR code was not scanned in time',
  foreignphone: 'Off: a different phone number scanned the code',
  blocked: 'Off: blocked by the platform',
  rejected: 'Off: rejected by the platform',
  not_enough_money: 'Off: not paid',
  openelsewhere: 'Off: connected in another account of the service',
};

/** Who ended the authorization depends on how the channel was connected. */
const unauthorized = (connect: ConnectFlow | undefined): string =>
  connect === 'qr' ? 'Off: signed out on the phone' : connect === 'bot_token' ? 'Off: the bot token was revoked' : 'Off: the authorization was revoked';

/** A channel's status and reason in plain words. */
export function describeStatus(channel: {
  status: ChannelStatus;
  reason: string | null;
  url?: string | undefined;
  capabilities?: { connect: ConnectFlow };
}): { text: string; tone: Tone } {
  if (channel.status === 'active') return { text: 'Connected', tone: 'ok' };
  if (channel.status === 'init') {
    if (channel.reason && initWords[channel.reason]) return { text: initWords[channel.reason]!, tone: 'progress' };
    return { text: channel.url ? 'Waiting for authorization at the provider' : 'Connecting', tone: 'progress' };
  }
  if (channel.reason === 'unauthorized') return { text: unauthorized(channel.capabilities?.connect), tone: 'off' };
  return { text: (channel.reason && disabledWords[channel.reason]) || 'Off', tone: 'off' };
}

/** Who the channel is, as far as the messenger told: name, phone, user name, each said once. */
export function channelIdentity(channel: { name: string | null; phone: string | null; username: string | null }): string {
  const name = channel.name ?? '';
  const phone = channel.phone?.replace(/^\+/, '');
  const parts = [
    name,
    // A profile name is often the number itself ("+7 900 …"): it is not repeated.
    phone && !name.replace(/\D/g, '').includes(phone) ? `+${phone}` : '',
    channel.username && !name.includes(channel.username) ? `@${channel.username}` : '',
  ];
  return parts.filter((p) => p !== '').join(' · ');
}
