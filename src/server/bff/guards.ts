import type { FastifyRequest } from 'fastify';
import { AppError } from '../core/errors.ts';
import type { EmbedSessionRecord } from '../core/embedding/ports.ts';
import { chatInScope, type ChatIdentity } from '../core/embedding/scope.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** False for the /bff routes that run before there is a session (the link exchange). */
    session?: boolean;
  }
  interface FastifyRequest {
    embedSession: EmbedSessionRecord | null;
  }
}

/** The session of an authenticated /bff request (the plugin's hook has already checked it). */
export function sessionOf(request: FastifyRequest): EmbedSessionRecord {
  if (!request.embedSession) throw new AppError('UNAUTHORIZED', 'A session token is required');
  return request.embedSession;
}

/** Chat operations belong to the chat frame. */
export function assertChatsSession(session: EmbedSessionRecord): void {
  if (session.kind !== 'chats') throw new AppError('FORBIDDEN', 'This session may not use chats');
}

/** Connecting and reconnecting channels belongs to the connect frame. */
export function assertChannelsSession(session: EmbedSessionRecord): void {
  if (session.kind !== 'channels') throw new AppError('FORBIDDEN', 'This session may only use chats');
}

/**
 * A chat outside a card session's list is reported as not found, like another account's object: the frame
 * learns nothing about chats it was not given.
 */
export function assertChatInScope(session: EmbedSessionRecord, chat: ChatIdentity): void {
  assertChatsSession(session);
  if (!chatInScope(session, chat)) throw new AppError('CHAT_NOT_FOUND', 'Chat not found');
}

/** What the chat frame's send route needs to find a stored chat by its messenger id. */
export interface KnownChats {
  findByMessengerId(channelId: string, chatType: ChatIdentity['chat_type'], chatId: string): Promise<{ accountId: string; username: string | null; phone: string | null } | undefined>;
}

/**
 * The chat a send will be routed to, as far as it can be told before the send: a chat_id wins over username and
 * phone (the message goes to the chat of that id, whatever else the request names), so the only names that chat
 * has are the ones stored with it. Without a chat_id the send goes to the chat of its username, else its phone.
 * Checking the request's own fields merged with the stored ones would let a card's username vouch for another
 * chat's id.
 */
export async function routedChat(chats: KnownChats, accountId: string, channelId: string, recipient: ChatIdentity): Promise<ChatIdentity> {
  const { chat_type: chatType, chat_id: chatId, username, phone } = recipient;
  if (chatId) {
    const known = await chats.findByMessengerId(channelId, chatType, chatId);
    const mine = known?.accountId === accountId ? known : undefined;
    return { chat_type: chatType, chat_id: chatId, username: mine?.username ?? null, phone: mine?.phone ?? null };
  }
  return username ? { chat_type: chatType, username } : { chat_type: chatType, phone: phone ?? null };
}
