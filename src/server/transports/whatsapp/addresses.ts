import type { ChatType } from '../../../contract/channels.ts';

/**
 * WhatsApp's addresses (JIDs) and the gateway's chat ids: a person's chat is their number (`<digits>@s.whatsapp.net`),
 * a group's its id (`<id>@g.us`: 18 digits, or an old `<number>-<time>`). Numbers have at most 15 digits.
 */
const GROUP_ID = /^(\d{16,}|\d+-\d+)$/;

export const isGroupChatId = (chatId: string): boolean => GROUP_ID.test(chatId);

export const jidOf = (chatId: string): string => (isGroupChatId(chatId) ? `${chatId}@g.us` : `${chatId}@s.whatsapp.net`);

/** The user part of a JID, without a device (`15550000000:12@s.whatsapp.net` → `15550000000`). */
export const userOf = (jid: string): string => jid.split('@')[0]!.split(':')[0]!;

export function chatOf(jid: string, alternative?: string | null): { chatType: ChatType; chatId: string } | null {
  if (jid.endsWith('@g.us')) return { chatType: 'whatsgroup', chatId: userOf(jid) };
  if (jid.endsWith('@s.whatsapp.net')) return { chatType: 'whatsapp', chatId: userOf(jid) };
  // A person known by their private id (`@lid`) in WhatsApp's newer addressing: the number comes beside it.
  if (jid.endsWith('@lid') && alternative?.endsWith('@s.whatsapp.net')) return { chatType: 'whatsapp', chatId: userOf(alternative) };
  return null;
}
