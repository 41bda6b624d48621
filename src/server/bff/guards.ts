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
