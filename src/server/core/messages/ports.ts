import type { Readable } from 'node:stream';
import type { ChatType, Transport } from '../../../contract/channels.ts';
import type { ChannelRecord } from '../channels/ports.ts';
import type { TransportRulesRegistry } from '../channels/transport-rules.ts';
import type { Clock, EventRecord, Store } from '../ports.ts';
import type { AcceptCommitter } from './accept-batch.ts';
import type { TypingHeard } from './typing.ts';
import type { PhoneFeed } from '../sandbox/phone-feed.ts';
import type { PacingOptions } from '../pacing/paced-sends.ts';
import type { Attachment, FailureReason, Keyboard, MessageStatus, TemplateRef } from '../../../contract/messages.ts';

/** A conversation of a channel. `chatId` is the messenger's id, unknown until it resolves a username or phone. */
export interface ChatRecord {
  id: string;
  accountId: string;
  channelId: string;
  chatType: ChatType;
  chatId: string | null;
  username: string | null;
  phone: string | null;
  name: string | null;
  unanswered: number;
  lastMessageAt: Date | null;
  createdAt: Date;
}

export interface MessageContent {
  text: string | null;
  attachment: Attachment | null;
  template: (TemplateRef & { text?: string }) | null;
}

/** Who wrote an inbound message (the contract's `sender`). */
export type { MessageSender } from '../../../contract/messages.ts';

export interface MessageRecord extends MessageContent {
  id: string;
  requestId: string | null;
  accountId: string;
  channelId: string;
  chatRef: string;
  direction: 'inbound' | 'outbound';
  status: MessageStatus;
  reason: FailureReason | null;
  keyboard: Keyboard | null;
  quotedMessageId: string | null;
  crmUserId: string | null;
  resetUnanswered: boolean;
  messengerMessageId: string | null;
  createdAt: Date;
  sentAt: Date | null;
  deliveredAt: Date | null;
  readAt: Date | null;
  editedAt: Date | null;
  deletedAt: Date | null;
  /** A send its channel's pacing holds (personal channels): why, and until when. Read only; absent or null otherwise. */
  hold?: { reason: string; until: Date } | null;
}

export interface ChatRepository {
  /**
   * Stores a new chat, or answers the one a concurrent transaction stored first for the same messenger id
   * (two first messages to one customer at once must land in one chat, not fail).
   */
  insert(chat: ChatRecord): Promise<ChatRecord>;
  get(accountId: string, id: string): Promise<ChatRecord | undefined>;
  /** The chat of a channel by the messenger's id. */
  findByMessengerId(channelId: string, chatType: ChatType, chatId: string): Promise<ChatRecord | undefined>;
  /** A chat still waiting for the messenger to resolve this username or phone. */
  findPending(channelId: string, chatType: ChatType, by: { username?: string; phone?: string }): Promise<ChatRecord | undefined>;
  update(chat: ChatRecord): Promise<void>;
  /**
   * The messenger gave a chat another id: its row takes `to` if it still has `from`, and nothing else of it is
   * written. False when it no longer has `from`, or another chat of the channel has `to` (then the transaction goes
   * on as it was: the unique messenger id is not a failure here). Only inside a transaction.
   */
  moveMessengerId(id: string, from: string, to: string): Promise<boolean>;
  remove(id: string): Promise<void>;
  /** Chats by our ids, in one read (the chats of a dispatched batch of events). */
  getMany(ids: string[]): Promise<ChatRecord[]>;
  /** Writes the changed columns of many chats in one statement. */
  updateMany(chats: ChatRecord[]): Promise<void>;
}

export interface MessageRepository {
  insert(message: MessageRecord): Promise<void>;
  /** Stores many messages in one statement. */
  insertMany(messages: MessageRecord[]): Promise<void>;
  get(accountId: string, id: string): Promise<MessageRecord | undefined>;
  /** Locks the row until the transaction ends. */
  getForUpdate(id: string): Promise<MessageRecord | undefined>;
  update(message: MessageRecord): Promise<void>;
  /** Moves every message of one chat to another (a pending chat resolved into a known one). */
  moveToChat(fromChatRef: string, toChatRef: string): Promise<void>;
  /**
   * The chat's message the messenger numbered so, however old: a report the messenger sends again (its answer
   * was lost) finds the message it already made, and a customer's edit the message it changes.
   */
  /** `lock`: with a row lock, in the caller's transaction (an edit that changes it). */
  findByMessengerId(chatRef: string, messengerMessageId: string, lock?: 'for update'): Promise<MessageRecord | undefined>;
  /**
   * The message the messenger numbered so and the parts recorded of it apart (`<number>:<part>`: a file of several,
   * its words), locked for update: a message the customer took back goes with all its parts.
   */
  findWithParts(chatRef: string, messengerMessageId: string): Promise<MessageRecord[]>;
  /**
   * The chat's outbound messages that the messenger took (`sent` or `delivered`) and that are not read, up to and
   * including the message `throughId`, oldest first, at most `limit`, locked for update; none older than the chat's
   * latest read outbound message before it (those were read with it).
   */
  outboundUnreadThrough(chatRef: string, throughId: string, limit: number): Promise<MessageRecord[]>;
  /**
   * Whether a sender holds one of the chat's sends now (its lease has not run out): it is with the messenger, or its
   * answer is still to be recorded. A send waiting for its turn or its retry is not under way.
   */
  hasSendUnderWay(chatRef: string): Promise<boolean>;
  /**
   * The chat moved from the messenger id `formerChatId` to another, which numbers its messages afresh: each number
   * of its history becomes `<formerChatId>/<number>` (see isMovedMessengerId), so that it names no message of the chat as
   * it is now. A number already so marked stays as it is.
   */
  markMovedFrom(chatRef: string, formerChatId: string): Promise<void>;
}

/**
 * Whether a message's number is of the chat's former id, not of the chat as it is now: a message written before
 * the messenger moved the chat to another id (a Telegram group before it became a supergroup) is numbered
 * `<old chat id>/<number there>` (see `markMovedFrom`). The messenger numbers messages of the new id from 1 again,
 * so such a number never stands for a message of the chat as it is now.
 */
export const isMovedMessengerId = (messengerMessageId: string) => messengerMessageId.includes('/');

/** What accepting sends to chats known by messenger id does to each chat, applied in the same statement. */
export interface KnownChatEffect {
  /** The id the chat gets if it does not exist yet. */
  newId: string;
  accountId: string;
  channelId: string;
  chatType: ChatType;
  chatId: string;
  /** The last name a send gave the recipient, if any. */
  name: string | null;
  /** Some send answered the chat: its unanswered count goes to zero. */
  resetUnanswered: boolean;
  lastMessageAt: Date;
}

/** A message leased to one sender: it is the head of its chat's line, and this is its `attempt`-th try. */
export interface ClaimedSend {
  message: MessageRecord;
  chat: ChatRecord;
  /** The message's channel as the claim found it; undefined once deleted. */
  channel: ChannelRecord | undefined;
  attempt: number;
}

/**
 * The messages table as the send queue: an outbound message that is still `accepted` waits to leave, and
 * each chat's messages leave one after another in the order they were accepted.
 */
export interface SendQueue {
  /**
   * Stores sends to chats known by their messenger id with one atomic statement: each chat found or created
   * and given its effect, the messages inserted in the order given. Waking the senders (this process's and
   * the others') is the caller's.
   */
  acceptToKnownChats(chats: KnownChatEffect[], messages: { message: Omit<MessageRecord, 'chatRef'>; chatType: ChatType; chatId: string }[]): Promise<void>;
  /**
   * Leases up to `limit` chat heads that are due at `now` for `leaseSeconds` (database time: the lease is
   * between processes) and counts the attempt. A head that is leased or waits for its retry holds its chat.
   * Successive claims go round the chats, each from where the last stopped, so every chat with a send
   * waiting gets its turn; the heads come in the order they were accepted.
   */
  claim(request: { limit: number; leaseSeconds: number; now: Date }): Promise<ClaimedSend[]>;
  /**
   * Writes the messenger's answers with one statement: each message's new state and its events, for the
   * messages still `accepted` only (one that another sender settled meanwhile is left alone, events and all).
   * Queues the events' webhook deliveries in the same statement, and tells the dispatchers and delivery loops at
   * commit (this process's own are woken by the store, the others by a notification).
   */
  recordAnswers(answers: { message: MessageRecord; events: EventRecord[] }[]): Promise<void>;
  /** Puts leased sends back, each due again at its time. */
  retryLater(items: { messageId: string; at: Date }[]): Promise<void>;
}

/** What the messenger answered to one send. */
export type SendOutcome =
  | {
      kind: 'sent';
      messengerMessageId: string;
      chatId: string;
      delivered: boolean;
      /** The messenger moved the chat to `chatId` (a Telegram group that became a supergroup): the chat follows. */
      chatMoved?: boolean;
    }
  | { kind: 'failed'; reason: FailureReason };

/** A network failure: the send may be retried, with the same request id. */
export class TransientSendError extends Error {
  /** How long the messenger asked to wait before the next try (its rate limit), when it said. */
  readonly retryAfterMs: number | null;

  constructor(message: string, retryAfterMs: number | null = null) {
    super(message);
    this.name = 'TransientSendError';
    this.retryAfterMs = retryAfterMs;
  }
}

export interface OutboundMessage extends MessageContent {
  requestId: string;
  channelId: string;
  transport: Transport;
  chatType: ChatType;
  chatId: string | null;
  username: string | null;
  phone: string | null;
  keyboard: Keyboard | null;
  /** The messenger's id of the quoted message. */
  quotedMessengerId: string | null;
  /** The channel's credentials as stored (sealed): a live driver opens them to act as the channel's account. */
  sealedCredentials: string | null;
  /** How long to show "typing…" in the chat before sending, where the platform has it (a personal channel's pacing). */
  typingMs?: number;
}

/** A sent message the messenger is asked to change or take back. */
export interface SentMessageRef {
  channelId: string;
  transport: Transport;
  /** The chat's id in the messenger (some platforms number messages per chat). */
  chatId: string | null;
  messengerMessageId: string;
  sealedCredentials: string | null;
}

/**
 * The messenger side of messaging. `send` should be idempotent per `requestId`: a retry after a crash returns
 * the first answer and never delivers twice (where the platform offers no such key, a driver says so).
 * Network failures throw TransientSendError.
 */
export interface MessagingDriver {
  send(message: OutboundMessage): Promise<SendOutcome>;
  /** The message's keyboard goes along: some platforms drop a keyboard the edit does not repeat. */
  edit(input: SentMessageRef & { text: string | null; attachment: Attachment | null; keyboard: Keyboard | null }): Promise<void>;
  remove(input: SentMessageRef): Promise<void>;
  /**
   * Sets the account's reaction to a message of the chat (null takes it back), on platforms that have reactions
   * (absent where the driver has none). `direction` says whose the message is (some platforms name it so).
   */
  react?(input: ReactionRef): Promise<void>;
  /**
   * Shows the customer that the account is typing (a personal account's presence, a bot's chat action), where the
   * platform has it; it lasts a few seconds on the platform, so it is sent again while the agent types.
   */
  sendTyping?(chat: TypingRef): Promise<void>;
}

/** A message the account reacts to. */
export interface ReactionRef extends SentMessageRef {
  chatType: ChatType;
  direction: 'inbound' | 'outbound';
  emoji: string | null;
}

/** A chat in which the account is shown typing. */
export interface TypingRef {
  accountId: string;
  channelId: string;
  transport: Transport;
  chatType: ChatType;
  chatId: string;
  sealedCredentials: string | null;
}

/** What the message use-cases work with. */
export interface MessageDeps {
  store: Store;
  clock: Clock;
  rules: TransportRulesRegistry;
  driver: MessagingDriver;
  /** Commits accepted sends together (group commit); without it each send commits in its own transaction. */
  accepts?: AcceptCommitter;
  /** Where a customer's typing is told (the frames' realtime hub). */
  typingHeard?: TypingHeard;
  /** The sandbox phones' push (the sandbox network only). */
  phoneFeed?: PhoneFeed;
  /** Pacing of personal channels (warm-up, caps, gaps, typing); without it they send as fast as any other. */
  pacing?: PacingOptions;
}

/** A messenger's call to the gateway (an update posted to the address the gateway gave it), as HTTP received it. */
export interface MessengerCallback {
  channelId: string;
  headers: Record<string, string | string[] | undefined>;
  /** The address's query, where a platform that signs nothing is given a secret in it (Avito). */
  query?: Record<string, unknown>;
  body: unknown;
  /**
   * Gives the body of the 2xx answer to a callback that is taken, when the transport has something to say there
   * (Telegram runs the Bot API method a webhook's answer names).
   */
  respond?(body: Record<string, unknown>): void;
  /** Gives the 2xx answer as plain text instead (VK's Callback API takes `ok`, or the confirmation code, and nothing else). */
  respondText?(text: string): void;
}

/**
 * What a transport made of a callback: `accepted` (recorded), `ignored` (nothing to record; the messenger need not
 * send it again), `unauthorized` (the channel's secret did not match) or `unavailable` (the channel cannot take
 * it now, being connected or switched off: the messenger should send it again later).
 */
export type MessengerHook = (callback: MessengerCallback) => Promise<'accepted' | 'ignored' | 'unauthorized' | 'unavailable'>;

/**
 * A platform's call to the one address of the gateway's app on it, where it posts every connected account's updates
 * (Meta's webhooks for Instagram), as HTTP received it: the body byte for byte, since the platform's signature is
 * over those bytes.
 */
export interface MessengerAppCallback {
  headers: Record<string, string | string[] | undefined>;
  rawBody: Buffer;
  /** The body read as JSON, NUL characters replaced as in every platform's update; undefined when it is not JSON. */
  json(): unknown;
}

/**
 * What reads a platform's calls to the app's address: its check that the address is the app's (a GET with a
 * challenge), and its updates, answered as a MessengerHook's are (`accepted` only once all is recorded).
 */
export interface MessengerAppHook {
  /** The transport whose channels the platform's posts are for. */
  readonly transport: Transport;
  /** The challenge to answer when the platform's check carries the token the app was set up with, else null. */
  verify(query: Record<string, unknown>): string | null;
  receive(callback: MessengerAppCallback): Promise<'accepted' | 'ignored' | 'unauthorized' | 'unavailable'>;
}

/** A file a customer sent, as the gateway hands it on under its own link: all of it, or the part a client asked for. */
export interface MessengerFile {
  stream: Readable;
  contentType: string;
  /** How many bytes the body holds (for a part, the part's own length), when the platform told it. */
  size: number | null;
  /** Set when the body is one part of the file (the platform answered 206): the part, as `content-range` names it (`bytes 0-99/2048`). */
  contentRange?: string;
  /** Whether the platform serves parts of this file: it answered with one, or said `accept-ranges: bytes`. */
  acceptsRanges?: boolean;
}

/** The platform has no such part of the file as was asked for (it answered 416); the whole file's length when it told it. */
export interface MessengerFileRangeNotSatisfiable {
  rangeNotSatisfiable: true;
  size: number | null;
}

/**
 * Opens the file behind one of the gateway's file links: `forbidden` for a link it did not sign, null when gone.
 * `range` is the client's `Range` header as it came: a single `bytes=` range is passed on to the platform, anything
 * else is ignored and the whole file opened.
 */
export type MessengerFileOpener = (link: {
  channelId: string;
  fileId: string;
  signature: string;
  range?: string;
}) => Promise<MessengerFile | MessengerFileRangeNotSatisfiable | 'forbidden' | null>;
