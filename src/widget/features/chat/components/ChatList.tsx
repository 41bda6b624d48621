import { useEffect, useState } from 'react';
import type { BffChat } from '../../../../contract/bff-chats.ts';
import type { ChatListState } from '../store/chat-list.ts';
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
  const [text, setText] = useState(state.query);
  useEffect(() => {
    const t = setTimeout(() => onSearch(text), SEARCH_DELAY_MS);
    return () => clearTimeout(t);
  }, [text, onSearch]);

  const waiting = state.chats.reduce((n, c) => n + (c.unanswered_count > 0 ? 1 : 0), 0);
  return (
    <section className="gw-list" aria-label="Chats">
      <div className="gw-list__search">
        <input
          type="search"
          className="gw-input"
          aria-label="Search chats"
          placeholder="Search by name, phone or text"
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
      </div>
      {state.phase === 'ready' && waiting > 0 && (
        <p className="gw-list__summary" role="status">
          {waiting === 1 ? '1 chat waits for an answer' : `${waiting} chats wait for an answer`}
        </p>
      )}
      {state.phase === 'loading' && (
        <p className="gw-list__note" role="status">
          Loading chats…
        </p>
      )}
      {state.phase === 'failed' && (
        <LoadFailed what="chats" error={state.error} className="gw-list__note" onRetry={onRetry} />
      )}
      {state.phase === 'ready' && state.chats.length === 0 && (
        <p className="gw-list__note">{state.query ? `No chats match “${state.query}”.` : 'No chats yet.'}</p>
      )}
      <ul className="gw-list__items" aria-label="Chat list">
        {state.chats.map((chat) => (
          <ChatListItem key={chat.chat_ref} chat={chat} selected={chat.chat_ref === openRef} onOpen={onOpen} />
        ))}
        {state.nextCursor && (
          <li className="gw-list__more">
            <button type="button" className="gw-button gw-button--quiet" onClick={onLoadMore} disabled={state.loadingMore}>
              {state.loadingMore ? 'Loading…' : 'Load more chats'}
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
