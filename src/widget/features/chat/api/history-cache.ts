import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import { applyPatch, laterStatus, mergePatches, type ChatMessage, type MessagePatch } from '../store/message.ts';
import { foldCaptions } from '../store/captions.ts';
import { loadResent, wasResent } from '../store/resent.ts';

/** One page of a chat's history as the cache keeps it: oldest first, as the chat shows them. */
export interface HistoryPage {
  messages: ChatMessage[];
  older_cursor: string | null;
}

/** The pages read so far, the newest page first; live and sent messages join the newest page at its end. */
export type HistoryData = InfiniteData<HistoryPage, string | null>;

/** What the history shows: every loaded message once, oldest first, and whether older ones are left to read. */
export interface History {
  messages: ChatMessage[];
  olderCursor: string | null;
}

/**
 * The pages as one list (a message an older page repeats, having moved while read, is shown once), a file and its
 * caption as one message.
 */
export function historyOf(data: HistoryData): History {
  loadResent();
  const seen = new Set<string>();
  const messages: ChatMessage[] = [];
  for (let p = data.pages.length - 1; p >= 0; p--) {
    for (const m of data.pages[p]!.messages) {
      if (m.message_id !== null) {
        // A failed message sent again shows as the message that replaced it.
        if (seen.has(m.message_id) || wasResent(m.message_id)) continue;
        seen.add(m.message_id);
      }
      messages.push(m);
    }
  }
  return { messages: foldCaptions(messages), olderCursor: data.pages.at(-1)?.older_cursor ?? null };
}

/** The keys a message is named by in events: its id, and (a send of this frame) the request's id. */
export const keysOf = (m: Pick<ChatMessage, 'message_id' | 'request_id'>): string[] =>
  [m.message_id ? `m:${m.message_id}` : '', m.request_id ? `r:${m.request_id}` : ''].filter(Boolean);

const named = (m: ChatMessage, keys: readonly string[]) => keysOf(m).some((k) => keys.includes(k));

/** Changes the messages that `match` names (newest first, since events mostly name what just arrived). */
export function updateMessages(data: HistoryData, match: (m: ChatMessage) => boolean, change: (m: ChatMessage) => ChatMessage): HistoryData {
  let changed = false;
  const pages = data.pages.map((page) => {
    let messages: ChatMessage[] | null = null;
    for (let i = page.messages.length - 1; i >= 0; i--) {
      const m = page.messages[i]!;
      if (!match(m)) continue;
      const next = change(m);
      if (next === m) continue;
      messages ??= page.messages.slice();
      messages[i] = next;
    }
    if (!messages) return page;
    changed = true;
    return { ...page, messages };
  });
  return changed ? { ...data, pages } : data;
}

export const findMessage = (data: HistoryData | undefined, keys: readonly string[]): ChatMessage | undefined => {
  for (const page of data?.pages ?? []) for (const m of page.messages) if (named(m, keys)) return m;
  return undefined;
};

/** Applies what an event said to the message it names; `found` tells whether it is in this history. */
export function patchMessage(data: HistoryData, keys: readonly string[], patch: MessagePatch): { data: HistoryData; found: boolean } {
  const found = findMessage(data, keys) !== undefined;
  return { found, data: found ? updateMessages(data, (m) => named(m, keys), (m) => applyPatch(m, patch)) : data };
}

/** A new message at the newest end, unless the history has it already. */
export function appendMessage(data: HistoryData, message: ChatMessage): HistoryData {
  if (message.message_id && findMessage(data, keysOf(message))) return data;
  const [newest, ...rest] = data.pages;
  return { ...data, pages: [{ ...newest!, messages: [...newest!.messages, message] }, ...rest] };
}

export const removeMessage = (data: HistoryData, key: string): HistoryData => ({
  ...data,
  pages: data.pages.map((page) => (page.messages.some((m) => m.key === key) ? { ...page, messages: page.messages.filter((m) => m.key !== key) } : page)),
});

const unsent = (m: ChatMessage) => m.message_id === null;

/** A message read again: the page is newer than what the cache had, except for its key and its status. */
function keepOwn(fresh: ChatMessage, mine: ChatMessage): ChatMessage {
  const status = mine.status === 'sending' || fresh.status === 'sending' ? fresh.status : laterStatus(fresh.status, mine.status);
  return { ...fresh, key: mine.key, status };
}

/**
 * The newest page read again, joined with what the cache had: messages keep their key (so their rows stay) and
 * their statuses (which only move forward), and this frame's messages the page does not have yet stay after it.
 */
export function keepUnsent(page: HistoryPage, before: HistoryData | undefined): HistoryPage {
  const newest = before?.pages[0];
  if (!newest) return page;
  const byKey = new Map<string, ChatMessage>();
  for (const m of newest.messages) for (const key of keysOf(m)) byKey.set(key, m);
  const seen = new Set<ChatMessage>();
  const messages = page.messages.map((m) => {
    const mine = keysOf(m)
      .map((k) => byKey.get(k))
      .find(Boolean);
    if (!mine) return m;
    seen.add(mine);
    return keepOwn(m, mine);
  });
  return { ...page, messages: [...messages, ...newest.messages.filter((m) => !seen.has(m) && unsent(m))] };
}

/**
 * Messages that reached the chat without `message.add` (another agent's sends): the newest page read again adds
 * them after what is shown, before this frame's unsent messages; what is shown is updated in place.
 */
export function mergeNewest(data: HistoryData, page: HistoryPage): HistoryData {
  const [newest, ...rest] = data.pages;
  if (!newest) return data;
  const at = new Map<string, number>();
  newest.messages.forEach((m, i) => keysOf(m).forEach((k) => at.set(k, i)));
  const messages = newest.messages.slice();
  const added: ChatMessage[] = [];
  for (const fresh of page.messages) {
    const i = keysOf(fresh)
      .map((k) => at.get(k))
      .find((n) => n !== undefined);
    if (i === undefined) {
      if (!rest.some((p) => p.messages.some((m) => m.message_id === fresh.message_id))) added.push(fresh);
      continue;
    }
    messages[i] = keepOwn(fresh, messages[i]!);
  }
  let end = messages.length;
  while (end > 0 && unsent(messages[end - 1]!)) end--;
  return { ...data, pages: [{ ...newest, messages: [...messages.slice(0, end), ...added, ...messages.slice(end)] }, ...rest] };
}

/** Events about messages no history holds yet are kept this long (by count), in case a page or a send brings them. */
const KEPT_PATCHES = 200;

/**
 * What events said of messages not loaded (yet), by `m:<message id>` or `r:<request id>`: a status may come
 * before the answer to the send that caused it, or before the page that holds its message.
 */
class PendingPatches {
  #patches = new Map<string, MessagePatch>();

  keep(keys: readonly string[], patch: MessagePatch): void {
    for (const key of keys) {
      const merged = mergePatches(this.#patches.get(key), patch);
      this.#patches.delete(key);
      this.#patches.set(key, merged);
    }
    while (this.#patches.size > KEPT_PATCHES) this.#patches.delete(this.#patches.keys().next().value!);
  }

  apply(m: ChatMessage): ChatMessage {
    let next = m;
    for (const key of keysOf(m)) {
      const patch = this.#patches.get(key);
      if (patch) next = applyPatch(next, patch);
    }
    return next;
  }
}

const pending = new WeakMap<QueryClient, PendingPatches>();

/** The frame's pending patches (one set per cache). */
export function pendingPatches(queryClient: QueryClient): PendingPatches {
  let patches = pending.get(queryClient);
  if (!patches) pending.set(queryClient, (patches = new PendingPatches()));
  return patches;
}
