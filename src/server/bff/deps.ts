import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ChannelDeps } from '../core/channels/ports.ts';
import type { TransportRulesRegistry } from '../core/channels/transport-rules.ts';
import type { EmbeddingDeps } from '../core/embedding/ports.ts';
import type { MessageDeps } from '../core/messages/ports.ts';
import type { UploadDeps } from '../core/uploads/uploads.ts';

/** Counts a request against a key's window and answers 429 past it (the composition passes the gateway's limiter). */
export type SessionLimiter = (key: string, request: FastifyRequest, reply: FastifyReply) => Promise<void>;

export interface BffDeps extends EmbeddingDeps {
  rules: TransportRulesRegistry;
  limit: SessionLimiter;
  /** The window all the sessions of one account share, besides each session's own; none when absent. */
  accountLimit?: SessionLimiter | undefined;
  /** Failed session authentications by caller address: past the limit an address is refused before its token is read. */
  failedAuth?: { recordFailedAuth(address: string): Promise<void>; isAddressBlocked(address: string): Promise<number | null> } | undefined;
  /** The message and channel use-cases /v2 uses too. */
  messages: MessageDeps;
  channels: ChannelDeps;
  /** Files agents attach to messages. */
  uploads: UploadDeps;
  /** The built widget; its index.html is the frame page. */
  widgetDir: string | null;
}
