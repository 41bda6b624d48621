import { create } from 'zustand';
import type { StreamEventPayloads } from '../../../../contract/realtime.ts';

/**
 * Unread messages, apart from unanswered ones. Unanswered is the gateway's (inbound messages since the last answer,
 * for every agent); unread is this agent's: what came in while they were not looking at the chat. Opening the chat
 * (in a visible frame) reads it. Kept in the browser per account and agent, so a reload keeps the counts.
 */
export interface Unread {
  /** Per chat (`unreadKey`): messages come in since the agent last looked. */
  counts: Readonly<Record<string, number>>;
  /** Where the counts are kept; null: not kept (no storage, or before the session is known). */
  storageKey: string | null;
  attach(storageKey: string | null): void;
  add(chat: string): void;
  read(chat: string): void;
}

/** A chat as events and list rows both name it: the channel, and the messenger's chat. */
export const unreadKey = (chat: { channel_id?: string | null | undefined; chat_type: string; chat_id?: string | null | undefined }): string | null =>
  chat.channel_id && chat.chat_id ? `${chat.channel_id}|${chat.chat_type}|${chat.chat_id}` : null;

/**
 * The chat a message come in makes unread: a customer's message, once. The words of a file (its caption, which the
 * gateway records after it as a message of its own and names `caption_of`) are the same message at the messenger,
 * counted with the file.
 */
export const unreadChatOf = (added: StreamEventPayloads['message.add']): string | null =>
  added.direction !== 'inbound' || added.caption_of ? null : unreadKey({ ...added.recipient, channel_id: added.channel_id });

/** At most this many chats are remembered (the oldest counted first go). */
const KEPT_CHATS = 300;

function load(storageKey: string | null): Record<string, number> {
  if (!storageKey) return {};
  try {
    const saved = JSON.parse(localStorage.getItem(storageKey) ?? '{}') as unknown;
    if (!saved || typeof saved !== 'object') return {};
    return Object.fromEntries(Object.entries(saved).filter((e): e is [string, number] => Number.isInteger(e[1]) && (e[1] as number) > 0));
  } catch {
    return {};
  }
}

function save(storageKey: string | null, counts: Record<string, number>) {
  if (!storageKey) return;
  try {
    localStorage.setItem(storageKey, JSON.stringify(counts));
  } catch {
    // Storage refused (a sandboxed or private frame): the counts last as long as the frame.
  }
}

export const useUnread = create<Unread>((set, get) => ({
  counts: {},
  storageKey: null,
  attach: (storageKey) => {
    const counts = load(storageKey);
    // Nothing kept and nothing counted (a frame's start, most often): the same empty counts, so no row draws again.
    const same = Object.keys(counts).length === 0 && Object.keys(get().counts).length === 0;
    set(same ? { storageKey } : { storageKey, counts });
  },
  add: (chat) => {
    const { counts, storageKey } = get();
    const next: Record<string, number> = { ...counts };
    delete next[chat];
    next[chat] = (counts[chat] ?? 0) + 1;
    const keys = Object.keys(next);
    for (const old of keys.slice(0, Math.max(0, keys.length - KEPT_CHATS))) delete next[old];
    save(storageKey, next);
    set({ counts: next });
  },
  read: (chat) => {
    const { counts, storageKey } = get();
    if (!counts[chat]) return;
    const next = { ...counts };
    delete next[chat];
    save(storageKey, next);
    set({ counts: next });
  },
}));

/** The total over all chats, and how many chats have any. */
export function unreadTotals(counts: Readonly<Record<string, number>>): { total: number; chats: number } {
  let total = 0;
  let chats = 0;
  for (const n of Object.values(counts)) {
    total += n;
    chats += 1;
  }
  return { total, chats };
}

/** The frame's title with the count in front, as messengers' tabs show it: "(3) Chats". */
export const titleWithCount = (title: string, total: number): string => (total > 0 ? `(${total > 99 ? '99+' : total}) ${title}` : title);
