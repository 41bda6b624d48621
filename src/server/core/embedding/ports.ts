import type { Clock, EventRecord, Store } from '../ports.ts';
import type { FrameGrant, LinkSigner } from './link-token.ts';

/** A frame's session: what a link was exchanged for. Only the hash of its secret is stored. */
export interface EmbedSessionRecord extends FrameGrant {
  id: string;
  secretHash: string;
  /** The link's id: a link is exchanged once. */
  linkId: string;
  createdAt: Date;
  expiresAt: Date;
  /** Renewals never extend a session past this. */
  maxExpiresAt: Date;
  revokedAt: Date | null;
}

export interface EmbedSessionRepository {
  /** False when a session for the same link exists already (the link was used). */
  insert(session: EmbedSessionRecord): Promise<boolean>;
  get(id: string): Promise<EmbedSessionRecord | undefined>;
  /** Sessions of the account neither revoked nor expired at `now`. */
  countOpen(accountId: string, now: Date): Promise<number>;
  extend(id: string, expiresAt: Date): Promise<void>;
  revoke(id: string, at: Date): Promise<void>;
  /** Revokes the open sessions of the account (of one CRM user when given); returns their ids. */
  revokeOpen(accountId: string, filter: { userId?: string | undefined }, at: Date): Promise<string[]>;
  /**
   * Records that a credential was revoked and revokes the open sessions it minted, returning their ids. A grant
   * once ended stays ended: links it made are refused when they come to be exchanged.
   */
  endGrant(grant: string, at: Date): Promise<string[]>;
  grantEnded(grant: string): Promise<boolean>;
  /** Forgets sessions that ended before `before` (their links have long expired). */
  purgeEndedBefore(before: Date): Promise<void>;
}

export interface EmbeddingOriginRepository {
  list(accountId: string): Promise<string[]>;
  replace(accountId: string, origins: string[], at: Date): Promise<void>;
}

/** The event table read as an ordered stream, for the realtime catch-up. */
export interface EventLogRepository {
  /** The position of the account's newest event, 0 when it has none. */
  head(accountId: string): Promise<number>;
  at(accountId: string, position: number): Promise<EventRecord | undefined>;
  /** Events after `after`, and those recorded since `overlapFrom` (a commit may land after a later position), oldest first. */
  since(accountId: string, query: { after: number; overlapFrom: Date; limit: number }): Promise<EventRecord[]>;
}

/** The realtime side of sessions: ends the live connections of sessions that were revoked. */
export interface LiveSessions {
  end(sessionIds: string[]): Promise<void>;
}

export interface EmbeddingDeps {
  store: Store;
  clock: Clock;
  links: LinkSigner;
  /** Base of the URLs handed out (PUBLIC_URL). */
  publicUrl: string;
  live: LiveSessions;
}
