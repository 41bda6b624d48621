import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import type { ChatContext } from '../context.ts';
import { getChats } from '../api/get-chats.ts';
import { chatListReducer, initialChatList } from '../store/chat-list.ts';
import { useCurrentLang } from '../../../lib/i18n.ts';
import { refusalOf } from '../../../lib/refusal.ts';

/** How long events for chats the list cannot place are gathered before the first page is read again. */
const REFRESH_AFTER_MS = 400;

/** The chat list of the screen: its search, its pages, and the stream applied to it. */
export function useChatList(ctx: Pick<ChatContext, 'client' | 'onEvent' | 'onResync'>) {
  const { client } = ctx;
  const [state, dispatch] = useReducer(chatListReducer, undefined, () => initialChatList());
  const [reads, setReads] = useState(0);
  const current = useRef(state);
  current.current = state;
  // The screen's language, as of when a call fails: a change of language does not read again.
  const lang = useCurrentLang();

  useEffect(() => ctx.onEvent((event) => dispatch({ type: 'event', event })), [ctx]);
  useEffect(() => ctx.onResync(() => setReads((n) => n + 1)), [ctx]);

  const query = state.query;
  useEffect(() => {
    let wanted = true;
    getChats(client, { q: query || undefined }).then(
      (page) => wanted && dispatch({ type: 'page', query, page, mode: 'first' }),
      (err: unknown) => wanted && dispatch({ type: 'failed', query, error: refusalOf(err, {}, lang()).message, mode: 'first' }),
    );
    return () => {
      wanted = false;
    };
  }, [client, query, reads]);

  // Throttled, not debounced: a steady stream of events must still lead to a read now and then.
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const refreshSoon = useCallback(() => {
    if (timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      const q = current.current.query;
      getChats(client, { q: q || undefined }).then(
        (page) => dispatch({ type: 'page', query: q, page, mode: 'refresh' }),
        () => {},
      );
    }, REFRESH_AFTER_MS);
  }, [client]);
  useEffect(() => () => clearTimeout(timer.current ?? undefined), []);
  useEffect(() => {
    if (state.stale > 0 && state.phase === 'ready') refreshSoon();
  }, [state.stale, state.phase, refreshSoon]);

  const loadMore = useCallback(() => {
    const { nextCursor, loadingMore, query: q } = current.current;
    if (!nextCursor || loadingMore) return;
    dispatch({ type: 'loadingMore' });
    getChats(client, { q: q || undefined, cursor: nextCursor }).then(
      (page) => dispatch({ type: 'page', query: q, page, mode: 'more' }),
      (err: unknown) => dispatch({ type: 'failed', query: q, error: refusalOf(err, {}, lang()).message, mode: 'more' }),
    );
  }, [client]);

  const search = useCallback((q: string) => dispatch({ type: 'search', query: q.trim() }), []);
  const retry = useCallback(() => setReads((n) => n + 1), []);

  return { state, search, loadMore, refreshSoon, retry };
}
