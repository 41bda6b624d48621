import type { SessionInfo } from '../../../../contract/session.ts';

/** A chat as a card or the host names it: by the messenger's id, or (telegram and max) by username or phone. */
export interface NamedChat {
  chat_type: string;
  chat_id?: string | null | undefined;
  username?: string | null | undefined;
  phone?: string | null | undefined;
}

/** The keys a chat can be recognised by, normalised as the server compares them (no @, lower case; digits). */
export function chatKeys(chat: NamedChat): string[] {
  return [
    chat.chat_id ? `${chat.chat_type}:id:${chat.chat_id}` : '',
    chat.username ? `${chat.chat_type}:username:${chat.username.replace(/^@/, '').toLowerCase()}` : '',
    chat.phone ? `${chat.chat_type}:phone:${chat.phone.replace(/\D/g, '')}` : '',
  ].filter(Boolean);
}

/** The server enforces the scope; the frame only avoids offering what it would be refused. */
export function inScope(session: SessionInfo, chat: NamedChat): boolean {
  if (session.kind !== 'chats') return false;
  if (session.scope === 'global') return true;
  const wanted = new Set(chatKeys(chat));
  return session.chats.some((c) => chatKeys(c).some((k) => wanted.has(k)));
}

/** Whether two namings are the same chat (a listed chat and a host's `open_chat`, say). */
export function sameChat(a: NamedChat & { channel_id?: string | null | undefined }, b: NamedChat & { channel_id?: string | null | undefined }): boolean {
  if (a.channel_id && b.channel_id && a.channel_id !== b.channel_id) return false;
  const keys = new Set(chatKeys(a));
  return chatKeys(b).some((k) => keys.has(k));
}

/**
 * How a chat nobody has written to yet is named before its first message: the CRM's contact name (the request's,
 * else the one the card's link gave for the same contact), and the handle it is reached by.
 */
export function newChatNames(
  chat: NamedChat & { contact_name?: string | null | undefined },
  session: SessionInfo,
): { name: string | null; username: string | null; phone: string | null } {
  const wanted = new Set(chatKeys(chat));
  const card = session.chats.find((c) => chatKeys(c).some((k) => wanted.has(k)));
  return {
    name: chat.contact_name || card?.contact_name || null,
    username: chat.username ?? card?.username ?? null,
    phone: chat.phone ?? card?.phone ?? null,
  };
}
