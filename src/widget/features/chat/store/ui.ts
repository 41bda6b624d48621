import { create } from 'zustand';
import type { BffChat } from '../../../../contract/bff-chats.ts';
import type { ChatType } from '../../../../contract/channels.ts';
import type { ChatMessage } from './message.ts';

/**
 * A chat the host (or the link) asked for by the messenger's id, or one the agent starts from the inbox: by id, or
 * (telegram and max) by username or phone. `contact_name` is the CRM's name for the contact, shown before any message.
 */
export interface RequestedChat {
  channel_id?: string | undefined;
  chat_type: ChatType;
  chat_id?: string | undefined;
  username?: string | undefined;
  phone?: string | undefined;
  contact_name?: string | undefined;
}

/** What finds a requested chat among the listed ones (the list's search takes any of them). */
export const searchTermOf = (chat: RequestedChat): string => chat.chat_id ?? chat.username ?? chat.phone ?? '';

/**
 * The open conversation: a chat of the gateway's (as it was when opened; the list's row, when listed, is newer),
 * or one asked for that has no history yet (the agent may write first).
 */
export type Opened = { kind: 'chat'; chat: BffChat } | { kind: 'new'; chat: RequestedChat };

/** A message being edited: the composer holds its text until it is saved or the edit is cancelled. */
export interface Editing {
  messageId: string;
  text: string;
}

/** The message a reply quotes, as its quote block shows it. */
export type Quote = NonNullable<ChatMessage['quoted_message']>;

/** The chat screen's own state (what the server holds lives in the query cache). */
interface ChatUi {
  /** The list's search, as applied (the box waits for a pause in typing). */
  search: string;
  opened: Opened | null;
  editing: Editing | null;
  replyTo: Quote | null;
  templatesOpen: boolean;
  /** For a chat opened without a channel: the channel the agent chose to write through. */
  channelPick: string | null;
  setSearch(search: string): void;
  open(opened: Opened): void;
  close(): void;
  edit(editing: Editing | null): void;
  reply(quote: Quote | null): void;
  showTemplates(open: boolean): void;
  pickChannel(channelId: string | null): void;
}

/** Whatever belonged to the chat that was open goes with it. */
const fresh = { editing: null, replyTo: null, templatesOpen: false, channelPick: null };

export const useChatUi = create<ChatUi>()((set) => ({
  search: '',
  opened: null,
  ...fresh,
  setSearch: (search) => set({ search: search.trim() }),
  open: (opened) => set({ opened, ...fresh }),
  close: () => set({ opened: null, ...fresh }),
  edit: (editing) => set({ editing, replyTo: null }),
  reply: (replyTo) => set({ replyTo, editing: null }),
  showTemplates: (templatesOpen) => set({ templatesOpen }),
  pickChannel: (channelPick) => set({ channelPick }),
}));

/** The key of the open chat's view: a new chat turning into a listed one is another view. */
export const openedKey = (opened: Opened | null): string | null =>
  !opened ? null : opened.kind === 'chat' ? opened.chat.chat_ref : `new:${opened.chat.channel_id ?? ''}:${opened.chat.chat_type}:${searchTermOf(opened.chat)}`;
