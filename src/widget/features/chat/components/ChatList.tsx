import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { BffChat } from '../../../../contract/bff-chats.ts';
import { Button } from '@/components/ui/Button.tsx';
import { inputClass } from '@/components/ui/Input.tsx';
import { useLang, useWords } from '@/lib/i18n.ts';
import { refusalOf } from '@/lib/refusal.ts';
import { whenIdle } from '@/lib/when-idle.ts';
import type { useChatList } from '../api/get-chats.ts';
import { useUnanswered } from '../api/get-unanswered.ts';
import { useChatUi } from '../store/ui.ts';
import { unreadKey, useUnread } from '../store/unread.ts';
import { words } from '../words.ts';
import { ChatListItem } from './ChatListItem.tsx';
import { prepareDateFormats } from './format.ts';
import { LoadFailed } from './LoadFailed.tsx';
import { MessageHits } from './MessageHits.tsx';
import { NewChatButton } from './NewChatButton.tsx';
import { NotifySettings } from './NotifySettings.tsx';

interface Props {
  list: ReturnType<typeof useChatList>;
  openRef: string | null;
  onOpen(chat: BffChat): void;
  /** In a narrow frame the list gives way to the open chat. */
  hidden: boolean;
}

/** Waits for a pause in typing before searching, so a search is not sent per key. */
const SEARCH_DELAY_MS = 250;

/** Up and down move between rows (the chats, then a search's message hits), Home and End to the first and last. */
function moveFocus(e: KeyboardEvent<HTMLDivElement>) {
  const rows = [...e.currentTarget.querySelectorAll<HTMLButtonElement>('button[data-row]')];
  const at = rows.indexOf(document.activeElement as HTMLButtonElement);
  const next = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: rows.length - 1 }[e.key];
  if (next === undefined || at < 0 || !rows[next]) return;
  e.preventDefault();
  rows[next].focus();
}

export function ChatList({ list, openRef, onOpen, hidden }: Props) {
  const lang = useLang();
  const w = useWords(words).list;
  const search = useChatUi((s) => s.search);
  const setSearch = useChatUi((s) => s.setSearch);
  const [text, setText] = useState(search);
  useEffect(() => {
    const t = setTimeout(() => setSearch(text), SEARCH_DELAY_MS);
    return () => clearTimeout(t);
  }, [text, setSearch]);

  // Once the rows are drawn, the dates a chat's messages are written with are made ready for the first open.
  const drawn = list.data !== undefined;
  useEffect(() => {
    if (drawn) return whenIdle(() => prepareDateFormats(lang));
  }, [drawn, lang]);

  // The open chat stays in view when the list reorders (answered, it moves down among the chats that do not wait).
  const items = useRef<HTMLUListElement>(null);
  const chats = list.data;
  useEffect(() => {
    items.current?.querySelector('[aria-current="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [chats, openRef]);

  // The server's count over all chats, not only the loaded rows; a search shows its own rows' count.
  const waitingAll = useUnanswered().data?.chats;
  const waiting = search ? (chats ?? []).filter((c) => c.unanswered_count > 0).length : (waitingAll ?? 0);
  const unread = useUnread((s) => s.counts);
  const failedMore = list.isFetchNextPageError ? refusalOf(list.error, {}, lang).message : null;
  return (
    <section className={`gw-list flex min-h-0 flex-col border-r border-line bg-panel max-sm:border-r-0 ${hidden ? 'max-sm:hidden' : ''}`} aria-label={w.label}>
      <div className="flex items-center gap-1 border-b border-line p-2.5">
        <input type="search" className={inputClass} aria-label={w.search} placeholder={w.searchPlaceholder} value={text} onChange={(e) => setText(e.target.value)} />
        <NewChatButton />
        <NotifySettings />
      </div>
      {chats && waiting > 0 && (
        <p className="px-3 py-2 text-[13px] text-muted" role="status">
          {w.waiting(waiting)}
        </p>
      )}
      {list.isPending && (
        <p className="px-3 py-2 text-[13px] text-muted" role="status">
          {w.loading}
        </p>
      )}
      {list.isLoadingError && <LoadFailed what={w.loadFailed} error={refusalOf(list.error, {}, lang).message} className="px-3 py-2 text-[13px]" onRetry={() => void list.refetch()} />}
      {chats?.length === 0 && <p className="px-3 py-2 text-[13px] text-muted">{search ? w.noMatch(search) : w.empty}</p>}
      {/* One scroll for the chats and, while searching, the messages found under them. */}
      <div className="min-h-0 flex-1 overflow-y-auto" onKeyDown={moveFocus}>
        <ul ref={items} className="m-0 list-none p-0" aria-label={w.items}>
          {chats?.map((chat) => <ChatListItem key={chat.chat_ref} chat={chat} selected={chat.chat_ref === openRef} unread={unread[unreadKey(chat) ?? ''] ?? 0} onOpen={onOpen} />)}
          {list.hasNextPage && (
            <li className="p-2 text-center">
              <Button variant="quiet" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
                {list.isFetchingNextPage ? w.loadingMore : w.loadMore}
              </Button>
            </li>
          )}
        </ul>
        {failedMore && (
          <p className="px-3 py-2 text-[13px] text-danger" role="alert">
            {failedMore}
          </p>
        )}
        {search && <MessageHits q={search} openRef={openRef} onOpen={onOpen} />}
      </div>
    </section>
  );
}
