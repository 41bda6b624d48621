import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/Button.tsx';
import { useLang, useWords } from '@/lib/i18n.ts';
import { refusalOf } from '@/lib/refusal.ts';
import { useScheduledFlag, whenIdle } from '@/lib/when-idle.ts';
import type { useHistory } from '../api/get-messages.ts';
import type { MessageActions } from '../store/actions.ts';
import type { ChatMessage } from '../store/message.ts';
import { viewWords } from '../view-words.ts';
import { dayLabel, dayOf } from './format.ts';
import { estimateHeight } from './history-estimate.ts';
import { useJump } from '../store/jump.ts';
import { useJumpTarget } from '../hooks/use-jump-target.ts';
import { LoadFailed } from './LoadFailed.tsx';
import { MessageBubble } from './MessageBubble.tsx';

interface Props {
  history: ReturnType<typeof useHistory>;
  actionsOf(message: ChatMessage): MessageActions;
  onEdit(message: ChatMessage): void;
  onDelete(message: ChatMessage): void;
  onReply(message: ChatMessage): void;
  onRetry(message: ChatMessage): void;
}

/** Room above the first message for "loading earlier messages" or "start of the conversation". */
const TOP = 36;
const BOTTOM = 12;
/** How close to the top (px) the agent scrolls before the next older page is read. */
const LOAD_OLDER_WITHIN = 600;
/** Within this distance from the end (px), the view follows new messages. */
const FOLLOW_WITHIN = 80;
/** Messages of one side this close together read as one group: no gap, one time at the group's end. */
const GROUP_MS = 5 * 60_000;
const EMPTY: ChatMessage[] = [];

/** The history's scroller while its first page is read, or failed to be. */
function HistoryPending({ history }: { history: Props['history'] }) {
  const lang = useLang();
  const w = useWords(viewWords).history;
  return (
    <div className="relative flex min-h-0 flex-1">
      <div className="gw-history flex flex-1 flex-col overflow-y-auto [contain:strict]" tabIndex={0} role="region" aria-label={w.label}>
        {history.isPending && (
          <p className="m-0 p-6 text-center text-muted" role="status">
            {w.loading}
          </p>
        )}
        {history.isLoadingError && <LoadFailed what={w.loadFailed} error={refusalOf(history.error, {}, lang).message} className="p-6 text-center" onRetry={() => void history.refetch()} />}
      </div>
    </div>
  );
}

/**
 * A chat's history, virtualized: only the messages in and near the view are in the DOM, so a chat of tens of
 * thousands of loaded messages scrolls as lightly as a short one. The list is anchored at its end: it opens at
 * the newest message, follows new ones while the agent is at the end, and keeps the message in view in place
 * when older pages are prepended. A new day starts with its date; a side's messages close together are grouped.
 * The list starts once the first page is in, at its end: the first messages drawn are the newest, not the oldest
 * of the page, which scrolling to the end would then replace.
 */
export function MessageHistory(props: Props) {
  return props.history.data === undefined ? <HistoryPending history={props.history} /> : <LoadedHistory {...props} />;
}

function LoadedHistory({ history, actionsOf, onEdit, onDelete, onReply, onRetry }: Props) {
  const lang = useLang();
  const w = useWords(viewWords).history;
  const messages = history.data?.messages ?? EMPTY;
  const olderCursor = history.data?.olderCursor ?? null;
  const loadingOlder = history.isFetchingNextPage;
  const scrollRef = useRef<HTMLDivElement>(null);
  const getItemKey = useCallback((i: number) => messages[i]!.key, [messages]);
  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement: () => scrollRef.current,
    // Each message's guessed from what it holds: the closer the guess, the fewer rows the first measuring moves and mounts.
    estimateSize: (i) => estimateHeight(messages[i]!),
    getItemKey,
    // Rows drawn beyond the view: each is a bubble to lay out while a chat opens, and three keep scrolling seamless.
    overscan: 3,
    paddingStart: TOP,
    paddingEnd: BOTTOM,
    anchorTo: 'end',
    followOnAppend: true,
    scrollEndThreshold: FOLLOW_WITHIN,
  });

  // Open at the newest message once the first page is there.
  const opened = useRef(false);
  useLayoutEffect(() => {
    if (opened.current || messages.length === 0) return;
    opened.current = true;
    virtualizer.scrollToEnd();
  }, [messages.length, virtualizer]);

  // The messages' actions (reply, copy, forward, edit, delete) appear on hover or focus, not with the opened chat:
  // they are added once its newest messages are drawn, so that opening a chat lays out the messages alone.
  const withActions = useScheduledFlag(true, whenIdle);

  // The view keeps its end in place when it gets shorter while the agent is at the end: the contact bar comes in
  // above it after the history, the composer grows with a reply, a file or buttons. The browser keeps the top.
  useEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    let height = el.clientHeight;
    const observer = new ResizeObserver(() => {
      const before = height;
      height = el.clientHeight;
      if (height < before && el.scrollHeight - el.scrollTop - before <= FOLLOW_WITHIN) virtualizer.scrollToEnd();
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [virtualizer]);

  // What the agent sends is shown even when they had scrolled up.
  const last = messages.at(-1);
  const lastKey = last?.key;
  const ownSend = last?.status === 'sending';
  useLayoutEffect(() => {
    if (ownSend) virtualizer.scrollToEnd();
  }, [lastKey, ownSend, virtualizer]);

  const { fetchNextPage } = history;
  const maybeLoadOlder = useCallback(() => {
    const el = scrollRef.current;
    if (!el || !opened.current || !olderCursor || loadingOlder || history.isFetchNextPageError) return;
    if (el.scrollTop < LOAD_OLDER_WITHIN) void fetchNextPage();
  }, [olderCursor, loadingOlder, fetchNextPage, history.isFetchNextPageError]);
  // Also after a page arrived: a short page may leave the view still near the top.
  useEffect(maybeLoadOlder, [maybeLoadOlder, messages.length]);

  // A quote leads to the message it quotes, when it is loaded: scrolled to, and marked for a moment.
  const [marked, setMarked] = useState<string | null>(null);
  const jumpTo = useCallback(
    (messageId: string) => {
      // The words of a file drawn with it are found at its bubble.
      const i = messages.findIndex((m) => m.message_id === messageId || m.caption_id === messageId);
      if (i < 0) return false;
      virtualizer.scrollToIndex(i, { align: 'center' });
      setMarked(messageId);
      return true;
    },
    [messages, virtualizer],
  );
  useJumpTarget(history, messages, jumpTo);
  // A quote of a message further back than the loaded pages: the history reads older pages until it is there.
  const jumpToQuoted = useCallback((messageId: string) => {
    if (!jumpTo(messageId)) useJump.getState().jump(messageId);
  }, [jumpTo]);
  useEffect(() => {
    if (!marked) return;
    const t = setTimeout(() => setMarked(null), 1600);
    return () => clearTimeout(t);
  }, [marked]);

  const items = virtualizer.getVirtualItems();
  const atEnd = virtualizer.isAtEnd(FOLLOW_WITHIN);
  const olderError = history.isFetchNextPageError ? refusalOf(history.error, {}, lang).message : null;

  return (
    <div className="relative flex min-h-0 flex-1">
      <div
        className="gw-history flex flex-1 flex-col overflow-y-auto [contain:strict] [overflow-anchor:none]"
        ref={scrollRef}
        onScroll={maybeLoadOlder}
        tabIndex={0}
        role="region"
        aria-label={w.label}
      >
        {messages.length === 0 && <p className="m-0 p-6 text-center text-muted">{w.empty}</p>}
        {messages.length > 0 && (
          // A short chat sits at the bottom, next to the composer, as its newest message would.
          <div className="relative mt-auto w-full flex-none" style={{ height: virtualizer.getTotalSize() }}>
            <p className="gw-history__edge absolute top-0 m-0 w-full p-2 text-center text-xs text-muted" role={loadingOlder ? 'status' : undefined}>
              {loadingOlder ? w.loadingOlder : olderCursor ? '' : w.start}
            </p>
            <ol className="gw-history__items h-full" aria-label={w.items} data-count={messages.length}>
              {items.map((item) => {
                const m = messages[item.index]!;
                const before = messages[item.index - 1];
                // The first loaded message starts its day only once nothing older is left to read: a date put above it
                // would move to an older page's first message when that page comes, shifting the view.
                const newDay = before ? dayOf(before.created_at) !== dayOf(m.created_at) : olderCursor === null;
                // The gap below a message tells whether the next one is of the same group: older pages coming above
                // never change a message's own height.
                const after = messages[item.index + 1];
                const groupedWithNext =
                  !!after && dayOf(after.created_at) === dayOf(m.created_at) && after.direction === m.direction && Date.parse(after.created_at) - Date.parse(m.created_at) < GROUP_MS;
                return (
                  <li
                    key={item.key}
                    data-index={item.index}
                    data-message-id={m.message_id ?? undefined}
                    ref={virtualizer.measureElement}
                    className={`gw-history__item group absolute top-0 left-0 w-full px-3.5 pt-px ${groupedWithNext ? 'pb-0.5' : 'pb-2'}`}
                    style={{ transform: `translateY(${item.start}px)` }}
                  >
                    {newDay && (
                      <p className="my-2 text-center">
                        <span className="rounded-full bg-panel px-2.5 py-0.5 text-xs text-muted shadow-sm">{dayLabel(m.created_at, lang)}</span>
                      </p>
                    )}
                    <div className={`flex ${m.direction === 'outbound' ? 'justify-end' : ''} ${marked !== null && (marked === m.message_id || marked === m.caption_id) ? '*:ring-2 *:ring-accent' : ''}`}>
                      <MessageBubble message={m} actions={withActions ? actionsOf(m) : null} onEdit={onEdit} onDelete={onDelete} onReply={onReply} onRetry={onRetry} onJump={jumpToQuoted} />
                    </div>
                  </li>
                );
              })}
            </ol>
          </div>
        )}
      </div>
      {olderError && (
        <p className="absolute top-2 left-1/2 m-0 -translate-x-1/2 rounded-md bg-danger-bg px-2.5 py-1 text-danger" role="alert">
          {olderError}
        </p>
      )}
      {messages.length > 0 && !atEnd && (
        <Button className="absolute right-4 bottom-3 shadow-md" onClick={() => virtualizer.scrollToEnd({ behavior: 'auto' })}>
          {w.latest}
        </Button>
      )}
    </div>
  );
}
