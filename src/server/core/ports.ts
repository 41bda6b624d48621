/**
 * The ports the domain needs. Storage, jobs and transports implement them; use-cases receive them.
 * Nothing here knows about SQL, HTTP or pg-boss.
 */
import type { TokenKind } from '../../contract/accounts.ts';
import type { ChannelRepository } from './channels/ports.ts';
import type { ChatListing, MessageHistory } from './chats/ports.ts';
import type { ContactCardRepository, ContactRepository } from './contacts/ports.ts';
import type { DealRepository, PipelineRepository } from './deals/ports.ts';
import type { EmbedSessionRepository, EmbeddingOriginRepository, EventLogRepository } from './embedding/ports.ts';
import type { GroupRepository } from './groups/ports.ts';
import type { ExportRepository } from './exports/ports.ts';
import type { JobName, JobPayloads } from './jobs.ts';
import type { ChatRepository, MessageRepository, SendQueue } from './messages/ports.ts';
import type { ReactionRepository } from './messages/reactions.ts';
import type { QuickReplyRepository } from './quick-replies/quick-replies.ts';
import type { PacingRepository } from './pacing/ports.ts';
import type { SandboxStateRepository } from './sandbox/ports.ts';
import type { SessionFenceCheck } from './sessions/ports.ts';
import type { CrmUserRepository } from './users/ports.ts';
import type { RightsRepository } from './rights/ports.ts';
import type { TemplateRepository } from './templates/ports.ts';
import type { UploadRepository } from './uploads/ports.ts';
import type { WebhookDeliveryRepository, WebhookSettingsRepository } from './webhooks/ports.ts';

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export interface AccountRecord {
  id: string;
  name: string;
  createdAt: Date;
}

export interface TokenRecord {
  id: string;
  accountId: string;
  kind: TokenKind;
  name: string | null;
  secretHash: string;
  createdAt: Date;
  revokedAt: Date | null;
}

export interface WebhookSubscriptionRecord {
  id: string;
  accountId: string;
  url: string;
  event: string;
  createdAt: Date;
  status: 'active' | 'disabled';
  disabledReason: string | null;
  disabledAt: Date | null;
  /** Start of the current run of failed attempts; null after a success. */
  failingSince: Date | null;
  /** Which face formats its bodies: `v2` (the default) or `v3` (the account's v3 address, one per event name). */
  face?: 'v2' | 'v3';
}

/** An account's v3 webhook address and switches; `crmKey` sealed. */
export interface WebhookV3SettingsRecord {
  accountId: string;
  uri: string | null;
  messagesAndStatuses: boolean;
  contactsAndDealsCreation: boolean;
  channelsUpdates: boolean;
  templateStatus: boolean;
  crmKey: string | null;
  updatedAt: Date;
}

export interface NewEvent {
  accountId: string;
  name: string;
  /** Events sharing a key are delivered in the order they were recorded (one chat, one channel). */
  orderingKey: string | null;
  payload: unknown;
}

export interface EventRecord extends NewEvent {
  id: string;
  createdAt: Date;
  /** Order of the event in the stream (ascending, with gaps); set by the store, so present once read back. */
  position?: number;
}

export interface AccountRepository {
  insert(account: AccountRecord): Promise<void>;
  get(id: string): Promise<AccountRecord | undefined>;
  list(): Promise<AccountRecord[]>;
  count(): Promise<number>;
}

export interface TokenRepository {
  insert(token: TokenRecord): Promise<void>;
  get(id: string): Promise<TokenRecord | undefined>;
  listByAccount(accountId: string): Promise<TokenRecord[]>;
  /** Marks the token revoked; false when it does not exist in that account. */
  revoke(accountId: string, tokenId: string, at: Date): Promise<boolean>;
}

export interface WebhookRepository {
  /** The account's v2 subscriptions (the v3 address's are not the v2 face's to list or change). */
  list(accountId: string): Promise<WebhookSubscriptionRecord[]>;
  /** The subscriptions of the account's v3 address. */
  listV3(accountId: string): Promise<WebhookSubscriptionRecord[]>;
  v3Settings(accountId: string): Promise<WebhookV3SettingsRecord | undefined>;
  saveV3Settings(record: WebhookV3SettingsRecord): Promise<void>;
  /** The subset of `ids` that are v2 subscriptions of the account. */
  findOwned(accountId: string, ids: string[]): Promise<WebhookSubscriptionRecord[]>;
  insertMany(records: WebhookSubscriptionRecord[]): Promise<void>;
  /** Changes address and event; a changed subscription is active again. */
  updateMany(accountId: string, changes: { id: string; url: string; event: string }[]): Promise<void>;
  deleteMany(accountId: string, ids: string[]): Promise<void>;
}

export interface EventRepository {
  /** In the order given: a batch's events take their stream positions in that order. */
  insert(events: EventRecord[]): Promise<void>;
  get(id: string): Promise<EventRecord | undefined>;
  /**
   * The stream as committed now, in position order: up to `limit` events after position `after`, and those
   * at the positions `holes` (read past earlier, before their transactions committed).
   */
  readStream(after: number, holes: readonly number[], limit: number): Promise<EventRecord[]>;
  /** The highest position taken so far (0 when there is none). */
  streamHead(): Promise<number>;
  /**
   * Deletes up to `limit` of the oldest events recorded before `before` that no webhook delivery refers to any
   * more. Returns how many went.
   */
  prune(before: Date, limit: number): Promise<number>;
}

export interface JobOptions {
  singletonKey?: string;
  /** Not before this many seconds from now (relative, so it holds whatever clock the caller keeps). */
  delaySeconds?: number;
  /** Jobs of one group share a concurrency limit (webhook deliveries: one group per endpoint). */
  group?: string;
  /** Not before this moment (timers set from the domain clock). */
  startAfter?: Date;
}

/** Durable background work. Inside a transaction, the job commits or rolls back with it. */
export interface JobQueue {
  enqueue<N extends JobName>(name: N, payload: JobPayloads[N], options?: JobOptions): Promise<void>;
}

export interface Repositories {
  accounts: AccountRepository;
  channels: ChannelRepository;
  chats: ChatRepository & ChatListing;
  groups: GroupRepository;
  messages: MessageRepository & MessageHistory;
  reactions: ReactionRepository;
  sends: SendQueue;
  tokens: TokenRepository;
  webhooks: WebhookRepository;
  events: EventRepository;
  sandbox: SandboxStateRepository;
  eventLog: EventLogRepository;
  embedSessions: EmbedSessionRepository;
  embeddingOrigins: EmbeddingOriginRepository;
  crmUsers: CrmUserRepository;
  contacts: ContactRepository;
  rights: RightsRepository;
  contactCards: ContactCardRepository;
  deals: DealRepository;
  pipelines: PipelineRepository;
  templates: TemplateRepository;
  exports: ExportRepository;
  webhookSettings: WebhookSettingsRepository;
  webhookDeliveries: WebhookDeliveryRepository;
  uploads: UploadRepository;
  /** Whether a long-lived session's lease is still the one a write is made under (see SessionFenceCheck). */
  sessionFences: SessionFenceCheck;
  /** Pacing of personal channels: their day's counts and the holds of their sends. */
  pacing: PacingRepository;
  /** The account's saved answers for the chat frame. */
  quickReplies: QuickReplyRepository;
}

/** Repositories and the job queue bound to one database transaction. */
export interface TransactionScope extends Repositories {
  jobs: JobQueue;
}

export interface Store extends Repositories {
  /** Runs `work` in one transaction: every write and every enqueued job commit together or not at all. */
  transaction<T>(work: (tx: TransactionScope) => Promise<T>): Promise<T>;
  /**
   * Runs statements that need no atomicity (each checks again what it relies on) but go faster kept
   * together: in one transaction on the embedded database, whose one connection then runs them back to
   * back; one by one on a server, where a transaction would only add its BEGIN and COMMIT round trips.
   */
  together<T>(work: (scope: Repositories) => Promise<T>): Promise<T>;
}
