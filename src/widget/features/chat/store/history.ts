import type { MessagePage } from '../../../../contract/bff-chats.ts';
import type { StreamEvent } from '../../../../contract/realtime.ts';
import { applyPatch, fromAddEvent, fromBff, laterStatus, mergePatches, patchOfEvent, sending, type ChatMessage, type MessagePatch } from './message.ts';

type Added = Extract<StreamEvent, { name: 'message.add' }>['payload'];

/** Events about messages that are not loaded are kept this long (by count) in case a page brings them. */
const KEPT_PATCHES = 200;

/**
 * The history of the open chat, oldest first: pages read from /bff (newest first, then older ones prepended)
 * merged with what the stream and this frame's own sends add at the newest end. A message appears once,
 * whether a page, an event or a send told of it first (by message id, or request id for a send).
 */
export interface HistoryState {
  /** The chat (null: one without history yet, opened by the host before anyone wrote). */
  chatRef: string | null;
  messages: ChatMessage[];
  /** Continue towards older messages with this; null when the oldest is loaded. */
  olderCursor: string | null;
  phase: 'loading' | 'ready' | 'failed';
  loadingOlder: boolean;
  error: string | null;
  /** What events said of messages not loaded (yet), by `m:<message id>` or `r:<request id>`, oldest first. */
  patches: ReadonlyMap<string, MessagePatch>;
}

export type HistoryAction =
  | { type: 'open'; chatRef: string | null }
  /** newest: the first read; older: the page before the oldest shown; again: the newest page read once more. */
  | { type: 'page'; chatRef: string; page: MessagePage; part: 'newest' | 'older' | 'again' }
  | { type: 'failed'; chatRef: string; error: string; older: boolean }
  | { type: 'loadingOlder' }
  /** A `message.add` of this chat. */
  | { type: 'added'; payload: Added }
  /** Any stream event: statuses, edits and deletes name only the message, so each is looked for here. */
  | { type: 'event'; event: StreamEvent }
  | { type: 'sending'; key: string; text: string | null; template?: ChatMessage['template']; attachment?: ChatMessage['attachment']; now: Date }
  /** `attachment`: the file's own, once uploaded, in place of the name shown while it was. */
  | { type: 'sent'; key: string; requestId: string; attachment?: ChatMessage['attachment'] }
  | { type: 'sendFailed'; key: string };

export const emptyHistory = (chatRef: string | null): HistoryState => ({
  chatRef,
  messages: [],
  olderCursor: null,
  phase: chatRef === null ? 'ready' : 'loading',
  loadingOlder: false,
  error: null,
  patches: new Map(),
});

const keysOf = (m: Pick<ChatMessage, 'message_id' | 'request_id'>) =>
  [m.message_id ? `m:${m.message_id}` : '', m.request_id ? `r:${m.request_id}` : ''].filter(Boolean);

/** Newest first, since what events name is mostly what just arrived. */
function indexOf(messages: readonly ChatMessage[], keys: readonly string[]): number {
  const ids = new Set<string>();
  const requests = new Set<string>();
  for (const key of keys) (key.startsWith('m:') ? ids : requests).add(key.slice(2));
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if ((m.message_id !== null && ids.has(m.message_id)) || (m.request_id !== null && requests.has(m.request_id))) return i;
  }
  return -1;
}

function withPatches(m: ChatMessage, patches: ReadonlyMap<string, MessagePatch>): ChatMessage {
  let next = m;
  for (const key of keysOf(m)) {
    const patch = patches.get(key);
    if (patch) next = applyPatch(next, patch);
  }
  return next;
}

function keepPatch(patches: ReadonlyMap<string, MessagePatch>, keys: readonly string[], patch: MessagePatch): Map<string, MessagePatch> {
  const next = new Map(patches);
  for (const key of keys) {
    const merged = mergePatches(next.get(key), patch);
    next.delete(key);
    next.set(key, merged);
  }
  while (next.size > KEPT_PATCHES) next.delete(next.keys().next().value!);
  return next;
}

/** The newest page joined with what is already shown: the page's order, then what only the frame knows. */
function mergeNewest(state: HistoryState, page: MessagePage): ChatMessage[] {
  const local = new Map<string, ChatMessage>();
  for (const m of state.messages) for (const key of keysOf(m)) local.set(key, m);
  const seen = new Set<ChatMessage>();
  const fromPage = page.messages.map((bff) => {
    let m = withPatches(fromBff(bff), state.patches);
    const mine = local.get(`m:${bff.message_id}`) ?? (bff.request_id ? local.get(`r:${bff.request_id}`) : undefined);
    if (mine) {
      seen.add(mine);
      // The page is newer than what the frame had, except for statuses, which only move forward.
      m = { ...m, key: mine.key, status: mine.status === 'sending' ? m.status : laterStatus(m.status, mine.status) };
    }
    return m;
  });
  return [...fromPage, ...state.messages.filter((m) => !seen.has(m))];
}

/**
 * The newest page read again (messages that reached the chat without `message.add`, such as another agent's
 * sends): what is shown is updated in place, what is new goes after it, before this frame's unsent messages.
 */
function mergeAgain(state: HistoryState, page: MessagePage): ChatMessage[] {
  const at = new Map<string, number>();
  state.messages.forEach((m, i) => keysOf(m).forEach((key) => at.set(key, i)));
  const messages = state.messages.slice();
  const added: ChatMessage[] = [];
  for (const bff of page.messages) {
    const fresh = withPatches(fromBff(bff), state.patches);
    const i = at.get(`m:${bff.message_id}`) ?? (bff.request_id ? at.get(`r:${bff.request_id}`) : undefined);
    if (i === undefined) {
      added.push(fresh);
      continue;
    }
    const mine = messages[i]!;
    messages[i] = { ...fresh, key: mine.key, status: mine.status === 'sending' ? fresh.status : laterStatus(fresh.status, mine.status) };
  }
  if (added.length === 0) return messages;
  let unsent = messages.length;
  while (unsent > 0 && messages[unsent - 1]!.message_id === null && messages[unsent - 1]!.request_id === null) unsent--;
  return [...messages.slice(0, unsent), ...added, ...messages.slice(unsent)];
}

export function historyReducer(state: HistoryState, action: HistoryAction): HistoryState {
  switch (action.type) {
    case 'open': {
      // Reopening the same chat (after a resync) keeps what is still being sent.
      const unsent = action.chatRef === state.chatRef ? state.messages.filter((m) => m.message_id === null) : [];
      return { ...emptyHistory(action.chatRef), messages: unsent, patches: action.chatRef === state.chatRef ? state.patches : new Map() };
    }
    case 'page': {
      if (action.chatRef !== state.chatRef) return state;
      if (action.part === 'older') {
        const known = new Set(state.messages.map((m) => m.message_id));
        const older = action.page.messages.filter((m) => !known.has(m.message_id)).map((m) => withPatches(fromBff(m), state.patches));
        return { ...state, messages: [...older, ...state.messages], olderCursor: action.page.older_cursor, loadingOlder: false };
      }
      if (action.part === 'again' && state.phase === 'ready') return { ...state, messages: mergeAgain(state, action.page) };
      return { ...state, messages: mergeNewest(state, action.page), olderCursor: action.page.older_cursor, phase: 'ready', error: null };
    }
    case 'failed':
      if (action.chatRef !== state.chatRef) return state;
      return action.older ? { ...state, loadingOlder: false, error: action.error } : { ...state, phase: 'failed', error: action.error };
    case 'loadingOlder':
      return { ...state, loadingOlder: true, error: null };
    case 'added': {
      const keys = [`m:${action.payload.message_id}`];
      if (indexOf(state.messages, keys) >= 0) return state;
      const quoted = action.payload.quoted_message_id ? state.messages[indexOf(state.messages, [`m:${action.payload.quoted_message_id}`])] : undefined;
      return { ...state, messages: [...state.messages, withPatches(fromAddEvent(action.payload, quoted), state.patches)] };
    }
    case 'event': {
      const found = patchOfEvent(action.event);
      if (!found) return state;
      const i = indexOf(state.messages, found.keys);
      if (i < 0) return { ...state, patches: keepPatch(state.patches, found.keys, found.patch) };
      const updated = applyPatch(state.messages[i]!, found.patch);
      if (updated === state.messages[i]) return state;
      const messages = state.messages.slice();
      messages[i] = updated;
      return { ...state, messages };
    }
    case 'sending':
      return { ...state, messages: [...state.messages, sending(action.key, action.text, action.now, action.template, action.attachment)] };
    case 'sent': {
      const i = state.messages.findIndex((m) => m.key === action.key);
      if (i < 0) return state;
      // A read of the newest page may have brought the message before the answer to the send did.
      const j = indexOf(state.messages, [`r:${action.requestId}`]);
      if (j >= 0 && j !== i) return { ...state, messages: state.messages.filter((_, k) => k !== i) };
      const messages = state.messages.slice();
      // Its statuses may have come over the stream before the answer to the send did.
      const sent = { ...messages[i]!, request_id: action.requestId, status: laterStatus(messages[i]!.status, 'accepted') };
      messages[i] = withPatches(action.attachment ? { ...sent, attachment: action.attachment } : sent, state.patches);
      return { ...state, messages };
    }
    case 'sendFailed':
      return { ...state, messages: state.messages.filter((m) => m.key !== action.key) };
  }
}
