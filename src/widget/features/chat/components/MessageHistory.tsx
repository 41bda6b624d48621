import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useRef } from 'react';
import { useWords } from '../../../lib/i18n.ts';
import type { MessageActions } from '../store/actions.ts';
import type { HistoryState } from '../store/history.ts';
import type { ChatMessage } from '../store/message.ts';
import { words } from '../words.ts';
import { MessageBubble } from './MessageBubble.tsx';
import { LoadFailed } from './LoadFailed.tsx';

interface Props {
  history: HistoryState;
  onLoadOlder(): void;
  onRetry(): void;
  actionsOf(message: ChatMessage): MessageActions;
  onEdit(message: ChatMessage): void;
  onDelete(message: ChatMessage): void;
}

/** Room above the first message for "loading earlier messages" or "start of the conversation". */
const TOP = 36;
/** How close to the top (px) the agent scrolls before the next older page is read. */
const LOAD_OLDER_WITHIN = 600;
/** Within this distance from the end (px), the view follows new messages. */
const FOLLOW_WITHIN = 80;

/**
 * A chat's history, virtualized: only the messages in and near the view are in the DOM, so a chat of tens of
 * thousands of loaded messages scrolls as lightly as a short one. The list is anchored at its end: it opens at
 * the newest message, follows new ones while the agent is at the end, and keeps the message in view in place
 * when older pages are prepended.
 */
export function MessageHistory({ history, onLoadOlder, onRetry, actionsOf, onEdit, onDelete }: Props) {
  const w = useWords(words).history;
  const { messages, phase, olderCursor, loadingOlder } = history;
  const scrollRef = useRef<HTMLDivElement>(null);
  const getItemKey = useCallback((i: number) => messages[i]!.key, [messages]);
  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 64,
    getItemKey,
    overscan: 8,
    paddingStart: TOP,
    paddingEnd: 12,
    anchorTo: 'end',
    followOnAppend: true,
    scrollEndThreshold: FOLLOW_WITHIN,
  });

  // Open at the newest message once the first page is there.
  const opened = useRef(false);
  useLayoutEffect(() => {
    if (opened.current || phase !== 'ready' || messages.length === 0) return;
    opened.current = true;
    virtualizer.scrollToEnd();
  }, [phase, messages.length, virtualizer]);

  // What the agent sends is shown even when they had scrolled up.
  const last = messages.at(-1);
  const lastKey = last?.key;
  const ownSend = last?.status === 'sending';
  useLayoutEffect(() => {
    if (ownSend) virtualizer.scrollToEnd();
  }, [lastKey, ownSend, virtualizer]);

  const maybeLoadOlder = useCallback(() => {
    const el = scrollRef.current;
    if (!el || !opened.current || !olderCursor || loadingOlder) return;
    if (el.scrollTop < LOAD_OLDER_WITHIN) onLoadOlder();
  }, [olderCursor, loadingOlder, onLoadOlder]);
  // Also after a page arrived: a short page may leave the view still near the top.
  useEffect(maybeLoadOlder, [maybeLoadOlder, messages.length]);

  const items = virtualizer.getVirtualItems();
  const atEnd = virtualizer.isAtEnd(FOLLOW_WITHIN);

  return (
    <div className="gw-history-frame">
      <div className="gw-history" ref={scrollRef} onScroll={maybeLoadOlder} tabIndex={0} role="region" aria-label={w.label}>
        {phase === 'loading' && (
          <p className="gw-history__note" role="status">
            {w.loading}
          </p>
        )}
        {phase === 'failed' && (
          <LoadFailed what={w.loadFailed} error={history.error} className="gw-history__note" onRetry={onRetry} />
        )}
        {phase === 'ready' && messages.length === 0 && <p className="gw-history__note">{w.empty}</p>}
        {messages.length > 0 && (
          <div className="gw-history__canvas" style={{ height: virtualizer.getTotalSize() }}>
            <p className="gw-history__edge" role={loadingOlder ? 'status' : undefined}>
              {loadingOlder ? w.loadingOlder : olderCursor ? '' : w.start}
            </p>
            <ol className="gw-history__items" aria-label={w.items} data-count={messages.length}>
              {items.map((item) => {
                const m = messages[item.index]!;
                return (
                  <li
                    key={item.key}
                    data-index={item.index}
                    data-message-id={m.message_id ?? undefined}
                    ref={virtualizer.measureElement}
                    className={`gw-history__item gw-history__item--${m.direction}`}
                    style={{ transform: `translateY(${item.start}px)` }}
                  >
                    <MessageBubble message={m} actions={actionsOf(m)} onEdit={onEdit} onDelete={onDelete} />
                  </li>
                );
              })}
            </ol>
          </div>
        )}
      </div>
      {phase === 'ready' && history.error && (
        <p className="gw-history__older-error gw-error" role="alert">
          {history.error}
        </p>
      )}
      {messages.length > 0 && !atEnd && (
        <button type="button" className="gw-button gw-history__latest" onClick={() => virtualizer.scrollToEnd({ behavior: 'auto' })}>
          {w.latest}
        </button>
      )}
    </div>
  );
}
