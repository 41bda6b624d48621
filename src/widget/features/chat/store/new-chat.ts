import type { ChatType, TransportCapabilities } from '../../../../contract/channels.ts';
import type { BffChannel } from '../../../../contract/session.ts';
import type { RequestedChat } from './ui.ts';

/** How a channel's messenger lets the agent name a new contact. */
export type AddressKind = 'phone' | 'phone_or_username' | 'id';

/** Whether the agent can start a chat through the channel: the messenger lets a business write first (or a template does). */
export const startsChats = (caps: TransportCapabilities): boolean => caps.can_write_first || caps.templates;

/** The chat type a one-to-one chat of the channel has (its first kind that is not a group's). */
export const personalChatType = (caps: TransportCapabilities): ChatType | null => caps.chat_types.find((t) => !caps.group_chat_types.includes(t)) ?? null;

/** WhatsApp names a contact by their number; Telegram and MAX accounts by username or number; the rest by their id. */
export function addressKind(caps: TransportCapabilities): AddressKind {
  if (caps.contact_by_username_or_phone) return 'phone_or_username';
  return personalChatType(caps) === 'whatsapp' ? 'phone' : 'id';
}

/** Channels an agent may start a chat through: active, and their messenger allows it. */
export const startingChannels = (channels: readonly BffChannel[]): BffChannel[] =>
  channels.filter((c) => c.status === 'active' && startsChats(c.capabilities) && personalChatType(c.capabilities) !== null);

const PHONE = /^[1-9]\d{6,14}$/;
/** Telegram's usernames: 5–32 letters, digits and underscores, starting with a letter; MAX's are alike. */
const USERNAME = /^[a-z][a-z0-9_]{4,31}$/i;

export type AddressProblem = 'empty' | 'phone' | 'phone_or_username' | 'id';

/**
 * The contact as the agent typed them, checked by the messenger's rules: a number in international form (spaces,
 * dashes, brackets and a leading + are dropped), a username (a leading @ is dropped), or the messenger's id.
 */
export function parseAddress(kind: AddressKind, typed: string, chatType: ChatType, channelId: string): RequestedChat | AddressProblem {
  const text = typed.trim();
  if (!text) return 'empty';
  const digits = text.replace(/[\s()+.-]/g, '');
  const isPhone = /^\+?[\d\s().-]+$/.test(text) && PHONE.test(digits);
  if (kind === 'phone') return isPhone ? { channel_id: channelId, chat_type: chatType, chat_id: digits } : 'phone';
  if (kind === 'phone_or_username') {
    if (isPhone) return { channel_id: channelId, chat_type: chatType, phone: digits };
    const username = text.replace(/^@/, '');
    return USERNAME.test(username) ? { channel_id: channelId, chat_type: chatType, username } : 'phone_or_username';
  }
  return /^\S{1,256}$/.test(text) ? { channel_id: channelId, chat_type: chatType, chat_id: text } : 'id';
}
