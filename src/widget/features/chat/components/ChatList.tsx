import { useEffect, useState } from 'react';
import type { BffChat } from '../../../../contract/bff-chats.ts';
import { useWords } from '../../../lib/i18n.ts';
import type { ChatListState } from '../store/chat-list.ts';
import { words } from '../words.ts';
import { ChatListItem } from './ChatListItem.tsx';
import { LoadFailed } from './LoadFailed.tsx';

interface Props {
  state: ChatListState;
  openRef: string | null;
  onOpen(chat: BffChat): void;
  onSearch(q: string): void;
  onLoadMore(): void;
  onRetry(): void;
}

/** Waits for a pause in typing before searching, so a search is not sent per key. */
const SEARCH_DELAY_MS = 250;

export function ChatList({ state, openRef, onOpen, onSearch, onLoadMore, onRetry }: Props) {
  const w = useWords(words).list;
  const [text, setText] = useState(state.query);
  useEffect(() => {
    const t = setTimeout(() => onSearch(text), SEARCH_DELAY_MS);
    return () => clearTimeout(t);
  }, [text, onSearch]);

  const waiting = state.chats.reduce((n, c) => n + (c.unanswered_count > 0 ? 1 : 0), 0);
  return (
    <section className="gw-list" aria-label={w.label}>
      <div className="gw-list__search">
        <input
          type="search"
          className="gw-input"
          aria-label={w.search}
          placeholder={w.searchPlaceholder}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
      </div>
      {state.phase === 'ready' && waiting > 0 && (
        <p className="gw-list__summary" role="status">
          {w.waiting(waiting)}
        </p>
      )}
      {state.phase === 'loading' && (
        <p className="gw-list__note" role="status">
          {w.loading}
        </p>
      )}
      {state.phase === 'failed' && (
        <LoadFailed what={w.loadFailed} error={state.error} className="gw-list__note" onRetry={onRetry} />
      )}
      {state.phase === 'ready' && state.chats.length === 0 && (
        <p className="gw-list__note">{state.query ? w.noMatch(state.query) : w.empty}</p>
      )}
      <ul className="gw-list__items" aria-label={w.items}>
        {state.chats.map((chat) => (
          <ChatListItem key={chat.chat_ref} chat={chat} selected={chat.chat_ref === openRef} onOpen={onOpen} />
        ))}
        {state.nextCursor && (
          <li className="gw-list__more">
            <button type="button" className="gw-button gw-button--quiet" onClick={onLoadMore} disabled={state.loadingMore}>
              {state.loadingMore ? w.loadingMore : w.loadMore}
            </button>
          </li>
        )}
      </ul>
      {state.phase === 'ready' && state.error && (
        <p className="gw-list__note gw-error" role="alert">
          {state.error}
        </p>
      )}
    </section>
  );
}
