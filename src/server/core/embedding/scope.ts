import type { ChatType } from '../../../contract/channels.ts';
import type { ChatRef } from '../../../contract/iframe-links.ts';
import { chatIdAsKept } from '../messages/recipient.ts';
import type { EventRecord } from '../ports.ts';
import type { EmbedSessionRecord } from './ports.ts';

/** A chat as an event or a request names it: by id, and for telegram and max possibly by username or phone. */
export interface ChatIdentity {
  chat_type: ChatType;
  chat_id?: string | null | undefined;
  username?: string | null | undefined;
  phone?: string | null | undefined;
}

/** Every key a chat can be recognised by; two identities name the same chat when their keys meet. */
export function chatKeys(chat: ChatIdentity): string[] {
  const keys: string[] = [];
  if (chat.chat_id) keys.push(`${chat.chat_type}:id:${chatIdAsKept(chat.chat_type, chat.chat_id)}`);
  if (chat.username) keys.push(`${chat.chat_type}:username:${chat.username.replace(/^@/, '').toLowerCase()}`);
  if (chat.phone) keys.push(`${chat.chat_type}:phone:${chat.phone.replace(/\D/g, '')}`);
  return keys;
}

const refKeys = (ref: ChatRef) => chatKeys(ref);

/** Whether a chats session may read, write to and hear about this chat. */
export function chatInScope(session: EmbedSessionRecord, chat: ChatIdentity): boolean {
  if (session.kind !== 'chats') return false;
  if (session.scope === 'global') return true;
  const wanted = new Set(chatKeys(chat));
  return session.chats.some((ref) => refKeys(ref).some((k) => wanted.has(k)));
}

/**
 * Audiences: named groups of sessions an event is pushed to. A session belongs to some; an event goes to
 * some; a session hears an event when they share one. The same function decides live pushes (socket.io
 * rooms) and catch-up replays, so both always agree.
 */
const audience = {
  /** Session by id: to end it. */
  session: (id: string) => `session:${id}`,
  /** Every chat event of the account: global chat frames. */
  allChats: (accountId: string) => `account:${accountId}:chats`,
  /** One chat: card frames that list it. */
  chat: (accountId: string, key: string) => `account:${accountId}:chat:${key}`,
  /** Account facts every chat frame needs: channel statuses, template moderation. */
  chatFrames: (accountId: string) => `account:${accountId}:chat-frames`,
  /** Channel changes and QR codes: connect frames only. */
  channelFrames: (accountId: string) => `account:${accountId}:channel-frames`,
};

export const sessionAudience = audience.session;

export function sessionAudiences(session: EmbedSessionRecord): string[] {
  const a = session.accountId;
  const own = audience.session(session.id);
  if (session.kind === 'channels') return [own, audience.channelFrames(a)];
  if (session.scope === 'global') return [own, audience.allChats(a), audience.chatFrames(a)];
  const chats = [...new Set(session.chats.flatMap(refKeys))].map((k) => audience.chat(a, k));
  return [own, audience.chatFrames(a), ...chats];
}

const CHAT_EVENTS = new Set(['message.add', 'message.status_update', 'message.edit', 'message.delete', 'message.reaction', 'chat.typing', 'chat.unanswered_update', 'chat.answered']);
const CHANNEL_STATE_EVENTS = new Set(['channel.status_update', 'channel.create', 'channel.delete', 'channel.waba_tier_update']);

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const record = (v: unknown): Record<string, unknown> | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/** The chat a chat event is about: top-level `chat_type`/`chat_id`, or `recipient` (message.add). */
export function chatOfPayload(payload: unknown): ChatIdentity | null {
  const p = record(payload);
  if (!p) return null;
  const recipient = record(p.recipient);
  const chatType = text(p.chat_type) ?? text(recipient?.chat_type);
  if (!chatType) return null;
  return {
    chat_type: chatType as ChatType,
    chat_id: text(p.chat_id) ?? text(recipient?.chat_id),
    username: text(p.username) ?? text(recipient?.username),
    phone: text(p.phone) ?? text(recipient?.phone),
  };
}

export const isChatEvent = (name: string): boolean => CHAT_EVENTS.has(name);

/**
 * Who hears an event. The chat of a chat event is the one given (looked up by the caller), else the one its
 * payload names. A chat event whose chat cannot be told reaches global frames only: card frames never get an
 * event they cannot be shown to be allowed.
 */
export function eventAudiences(event: Pick<EventRecord, 'accountId' | 'name' | 'payload'>, knownChat?: ChatIdentity | null): string[] {
  const a = event.accountId;
  if (CHAT_EVENTS.has(event.name)) {
    const chat = knownChat ?? chatOfPayload(event.payload);
    return [audience.allChats(a), ...(chat ? chatKeys(chat).map((k) => audience.chat(a, k)) : [])];
  }
  if (CHANNEL_STATE_EVENTS.has(event.name)) return [audience.channelFrames(a), audience.chatFrames(a)];
  if (event.name === 'channel.qr_update') return [audience.channelFrames(a)];
  if (event.name === 'waba_template.status_update') return [audience.chatFrames(a)];
  if (event.name.startsWith('group_chat.')) return [audience.allChats(a)];
  return [];
}

export function visibleTo(
  session: EmbedSessionRecord,
  event: Pick<EventRecord, 'accountId' | 'name' | 'payload'>,
  knownChat?: ChatIdentity | null,
): boolean {
  if (event.accountId !== session.accountId) return false;
  const mine = new Set(sessionAudiences(session));
  return eventAudiences(event, knownChat).some((a) => mine.has(a));
}
