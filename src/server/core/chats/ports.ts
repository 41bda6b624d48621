import type { ChatType, Transport } from '../../../contract/channels.ts';
import type { MessageRecord } from '../messages/ports.ts';

/** One key a chat may be recognised by, normalised as the session's chat refs are (see embedding/scope.ts). */
export interface ChatKey {
  chatType: ChatType;
  kind: 'chat_id' | 'username' | 'phone';
  value: string;
}

/** Where a page of the chat list starts: after the last row of the previous page, in list order. */
export interface ChatListPosition {
  unanswered: boolean;
  /** The last activity as a UTC ISO instant with microseconds (the database's precision), so pages never slip. */
  activity: string;
  id: string;
}

export interface ChatListQuery {
  accountId: string;
  /** null: every chat of the account. Otherwise only chats matching one of these keys (empty: none). */
  only: ChatKey[] | null;
  channelId?: string | undefined;
  /** Only these chats (by chat_ref), in list order. */
  ids?: string[] | undefined;
  /** Only chats of these channels (the reader's rights); every channel when absent or null. */
  channelIds?: string[] | null | undefined;
  /** Case-insensitive substring. */
  search?: string | undefined;
  /** The reader may see no phone numbers: the search matches phones and chat ids only whole, never by a part. */
  searchNumbersWhole?: boolean | undefined;
  after?: ChatListPosition | undefined;
  limit: number;
}

export interface ChatListRow {
  id: string;
  channelId: string;
  transport: Transport;
  channelName: string | null;
  chatType: ChatType;
  chatId: string | null;
  username: string | null;
  phone: string | null;
  messengerName: string | null;
  contactName: string | null;
  unanswered: number;
  activityAt: Date;
  position: ChatListPosition;
  lastMessage: Pick<MessageRecord, 'id' | 'direction' | 'status' | 'text' | 'attachment' | 'template' | 'createdAt' | 'deletedAt'> | null;
}

/** Reading the chat list; implemented by the chat repository. */
export interface ChatListing {
  /** Chats with unanswered messages first, then by last activity (newest first), then by id. */
  listPage(query: ChatListQuery): Promise<ChatListRow[]>;
  /** Unanswered messages summed over the chats, and how many chats have any. */
  unansweredTotals(query: Pick<ChatListQuery, 'accountId' | 'only' | 'channelIds'>): Promise<{ total: number; chats: number }>;
}

export interface HistoryRow extends MessageRecord {
  /** Insertion order within the store (a bigint as text): the history's keyset. */
  seq: string;
  quoted: Pick<MessageRecord, 'id' | 'direction' | 'text' | 'attachment' | 'deletedAt'> | null;
  authorName: string | null;
}

export interface HistoryQuery {
  accountId: string;
  chatRef: string;
  /** Only messages whose seq compares so with `seq`. */
  bound?: { op: '<' | '>' | '>='; seq: string } | undefined;
  order: 'asc' | 'desc';
  limit: number;
  /** Only messages whose text contains this, case-insensitively (a scan of the chat's messages in seq order). */
  textContains?: string;
}

/** Reading a chat's history, and finding messages across chats; implemented by the message repository. */
export interface MessageHistory extends MessageSearch {
  historyPage(query: HistoryQuery): Promise<HistoryRow[]>;
  /** The seq of a message of the chat; undefined when the chat has no such message. */
  historySeq(accountId: string, chatRef: string, messageId: string): Promise<string | undefined>;
  /** Whether the chat has a message beyond `seq` in that direction. */
  historyHas(accountId: string, chatRef: string, bound: { op: '<' | '>'; seq: string }): Promise<boolean>;
}

/** Which messages a search across chats may find: the chat list's reader scope, and the query's words. */
export interface MessageSearchQuery extends Pick<ChatListQuery, 'accountId' | 'only' | 'channelIds'> {
  /** Each must start a word of the text: letters and digits only (contract's `searchTerms`), at least one. */
  terms: string[];
  /** Only messages older than this seq (the previous page's last). */
  beforeSeq?: string | undefined;
  limit: number;
}

export interface MessageSearchRow {
  id: string;
  chatRef: string;
  direction: 'inbound' | 'outbound';
  text: string;
  createdAt: Date;
  seq: string;
}

/** Finding messages by their words across chats; implemented by the message repository on migration 0032's index. */
export interface MessageSearch {
  /** Newest first (by seq); deleted messages, those without text and sends still queued never match. */
  searchMessages(query: MessageSearchQuery): Promise<MessageSearchRow[]>;
}
