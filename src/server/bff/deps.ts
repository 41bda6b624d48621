import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ChannelDeps } from '../core/channels/ports.ts';
import type { TransportRulesRegistry } from '../core/channels/transport-rules.ts';
import type { EmbeddingDeps } from '../core/embedding/ports.ts';
import type { MessageDeps } from '../core/messages/ports.ts';
import type { UploadDeps } from '../core/uploads/uploads.ts';

/** Counts a request against a key's window and answers 429 past it (the composition passes the gateway's limiter). */
export type SessionLimiter = (key: string, request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/** An attempt to authenticate, counted before its check: refused attempts were never checked. */
export type CheckedAttempt<T> = { kind: 'passed'; value: T } | { kind: 'failed' } | { kind: 'refused'; retryAfterSeconds: number };

export interface BffDeps extends EmbeddingDeps {
  rules: TransportRulesRegistry;
  limit: SessionLimiter;
  /** The window all the sessions of one account share, besides each session's own; none when absent. */
  accountLimit?: SessionLimiter | undefined;
  /** Session tokens checked per caller address, counted before the check: past the limit an address is refused before its token is read. */
  failedAuth?: { attempt<T>(address: string, check: () => Promise<T | null>): Promise<CheckedAttempt<T>> } | undefined;
  /** The message and channel use-cases /v2 uses too. */
  messages: MessageDeps;
  channels: ChannelDeps;
  /** Files agents attach to messages. */
  uploads: UploadDeps;
  /** The built widget; its index.html is the frame page. */
  widgetDir: string | null;
}
