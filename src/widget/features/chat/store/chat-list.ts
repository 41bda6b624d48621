import type { BffChat, ChatPage, MessagePreview } from '../../../../contract/bff-chats.ts';
import type { StreamEvent } from '../../../../contract/realtime.ts';
import { laterStatus } from './message.ts';
import { sameChat } from './scope.ts';

/**
 * The chat list: keyset pages of /bff/chats for the current search, kept current by the stream. What the
 * stream tells about a chat that is not loaded (or while the first page is read) cannot be placed here:
 * `stale` counts such events, and the first page is read again and merged in.
 */
export interface ChatListState {
  query: string;
  /** Unanswered first, then by last activity, newest first (the server's order). */
  chats: BffChat[];
  nextCursor: string | null;
  phase: 'loading' | 'ready' | 'failed';
  loadingMore: boolean;
  error: string | null;
  stale: number;
  /** Per chat, the stream position of the unanswered count shown (pushes may arrive out of order). */
  counted: ReadonlyMap<string, number>;
}

export type ChatListAction =
  | { type: 'search'; query: string }
  /** first: the list of a (new) search; more: the next page; refresh: the first page again, merged in. */
  | { type: 'page'; query: string; page: ChatPage; mode: 'first' | 'more' | 'refresh' }
  | { type: 'failed'; query: string; error: string; mode: 'first' | 'more' | 'refresh' }
  | { type: 'loadingMore' }
  | { type: 'event'; event: StreamEvent };

export const initialChatList = (query = ''): ChatListState => ({
  query,
  chats: [],
  nextCursor: null,
  phase: 'loading',
  loadingMore: false,
  error: null,
  stale: 0,
  counted: new Map(),
});

/** The server's order: (has unanswered, last activity, chat_ref), all descending. */
export function compareChats(a: BffChat, b: BffChat): number {
  const unanswered = Number(b.unanswered_count > 0) - Number(a.unanswered_count > 0);
  if (unanswered !== 0) return unanswered;
  const activity = Date.parse(b.last_activity_at) - Date.parse(a.last_activity_at);
  if (activity !== 0) return activity;
  return a.chat_ref < b.chat_ref ? 1 : a.chat_ref > b.chat_ref ? -1 : 0;
}

const withChats = (state: ChatListState, chats: BffChat[]): ChatListState => ({ ...state, chats: chats.sort(compareChats) });

function merge(existing: readonly BffChat[], fresh: readonly BffChat[]): BffChat[] {
  const byRef = new Map(existing.map((c) => [c.chat_ref, c]));
  for (const c of fresh) byRef.set(c.chat_ref, c);
  return [...byRef.values()];
}

const stale = (state: ChatListState): ChatListState => ({ ...state, stale: state.stale + 1 });

/** Updates the one chat whose last message is `messageId`. */
function updateLast(state: ChatListState, messageId: string, update: (m: MessagePreview) => MessagePreview): ChatListState {
  const i = state.chats.findIndex((c) => c.last_message?.message_id === messageId);
  if (i < 0) return state;
  const chat = state.chats[i]!;
  const last = update(chat.last_message!);
  if (last === chat.last_message) return state;
  const chats = state.chats.slice();
  chats[i] = { ...chat, last_message: last };
  return { ...state, chats };
}

function onEvent(state: ChatListState, event: StreamEvent): ChatListState {
  switch (event.name) {
    case 'message.add': {
      const p = event.payload;
      const i = state.phase === 'ready' ? state.chats.findIndex((c) => sameChat(c, { ...p.recipient, channel_id: p.channel_id })) : -1;
      if (i < 0) return stale(state);
      const chat = state.chats[i]!;
      const at = new Date(p.timestamp).toISOString();
      const last: MessagePreview = {
        message_id: p.message_id,
        direction: p.direction,
        status: p.status as MessagePreview['status'],
        kind: p.attachment ? 'attachment' : p.template ? 'template' : 'text',
        text: p.text ?? null,
        attachment_name: p.attachment?.name ?? null,
        created_at: at,
        deleted: false,
      };
      const newer = Date.parse(at) >= Date.parse(chat.last_activity_at);
      const chats = state.chats.slice();
      chats[i] = { ...chat, ...(newer ? { last_message: last, last_activity_at: at } : {}) };
      return withChats(state, chats);
    }
    case 'chat.unanswered_update': {
      const p = event.payload;
      const i = state.phase === 'ready' ? state.chats.findIndex((c) => c.chat_ref === p.chat_ref) : -1;
      if (i < 0) return stale(state);
      if ((state.counted.get(p.chat_ref) ?? -1) > event.position) return state;
      const counted = new Map(state.counted).set(p.chat_ref, event.position);
      const chats = state.chats.slice();
      chats[i] = { ...chats[i]!, unanswered_count: p.unanswered_count };
      return { ...withChats(state, chats), counted };
    }
    case 'message.status_update': {
      const { message_id: id, status } = event.payload;
      if (!id) return state;
      // The first status of a message no row shows: a send (here or elsewhere) that is now some chat's last message.
      if ((status === 'accepted' || status === 'sent') && !state.chats.some((c) => c.last_message?.message_id === id)) return stale(state);
      return updateLast(state, id, (m) => {
        const next = laterStatus(m.status, status);
        return next === m.status || next === 'sending' ? m : { ...m, status: next };
      });
    }
    case 'message.edit': {
      const p = event.payload;
      if (!('text' in p)) return state;
      return updateLast(state, p.message_id, (m) => ({ ...m, text: p.text ?? null }));
    }
    case 'message.delete':
      return updateLast(state, event.payload.message_id, (m) => (m.deleted ? m : { ...m, deleted: true }));
    default:
      return state;
  }
}

export function chatListReducer(state: ChatListState, action: ChatListAction): ChatListState {
  switch (action.type) {
    case 'search':
      return action.query === state.query ? state : initialChatList(action.query);
    case 'page': {
      if (action.query !== state.query) return state;
      if (action.mode === 'first') {
        // Whatever the stream said while the page was read is in the page or comes with the next refresh.
        return withChats({ ...state, phase: 'ready', error: null, nextCursor: action.page.next_cursor }, action.page.chats.slice());
      }
      if (action.mode === 'more') {
        return withChats({ ...state, loadingMore: false, nextCursor: action.page.next_cursor }, merge(state.chats, action.page.chats));
      }
      return withChats(state, merge(state.chats, action.page.chats));
    }
    case 'failed':
      if (action.query !== state.query) return state;
      if (action.mode === 'more') return { ...state, loadingMore: false, error: action.error };
      if (action.mode === 'first') return { ...state, phase: 'failed', error: action.error };
      return state;
    case 'loadingMore':
      return { ...state, loadingMore: true, error: null };
    case 'event':
      return onEvent(state, action.event);
  }
}
