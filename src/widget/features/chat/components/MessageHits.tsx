import { useEffect, useState } from 'react';
import type { BffChat } from '../../../../contract/bff-chats.ts';
import type { MessageHit } from '../../../../contract/bff-message-search.ts';
import { searchTerms } from '../../../../contract/search-terms.ts';
import { Button } from '@/components/ui/Button.tsx';
import { useLang, useWords } from '@/lib/i18n.ts';
import { refusalOf } from '@/lib/refusal.ts';
import { useMessageSearch } from '../api/search-messages.ts';
import { searchWords } from '../search-words.ts';
import { useJump } from '../store/jump.ts';
import { chatTitle } from './format.ts';
import { hitParts } from './hit-text.ts';
import { MessengerMark } from './MessengerMark.tsx';
import { RowHeading } from './RowHeading.tsx';

interface Props {
  /** The list's search, as applied. */
  q: string;
  openRef: string | null;
  onOpen(chat: BffChat): void;
}

/**
 * The list search's "Messages" section: messages of all the reader's chats with the searched words, newest first,
 * under the matching chats. Choosing one opens its chat and leads the history to it, as a match of the in-chat
 * search does. Its buttons are list rows (`data-row`): the list's arrow keys go on from the chats into them.
 */
export function MessageHits({ q, openRef, onOpen }: Props) {
  const lang = useLang();
  const w = useWords(searchWords).hits;
  const found = useMessageSearch(q);
  const terms = searchTerms(q);
  const jump = useJump((s) => s.jump);

  // The jump waits for the chat to be open: the history of the chat open before gives up its jump as it closes.
  const [pending, setPending] = useState<{ chatRef: string; messageId: string } | null>(null);
  useEffect(() => {
    if (!pending || pending.chatRef !== openRef) return;
    jump(pending.messageId);
    setPending(null);
  }, [pending, openRef, jump]);

  if (terms.length === 0) return null;
  const chats = new Map<string, BffChat>();
  for (const page of found.data?.pages ?? []) for (const chat of page.chats) chats.set(chat.chat_ref, chat);
  const hits = (found.data?.pages ?? []).flatMap((page) => page.hits);

  const choose = (hit: MessageHit, chat: BffChat) => {
    if (chat.chat_ref !== openRef) onOpen(chat);
    setPending({ chatRef: chat.chat_ref, messageId: hit.message_id });
  };

  return (
    <section className="gw-hits">
      <h2 className="border-b border-line bg-bg px-3 py-1.5 text-xs font-semibold tracking-wide text-muted uppercase">
        {w.heading}
      </h2>
      {found.isSuccess && hits.length === 0 && (
        <p className="px-3 py-2 text-[13px] text-muted" role="status">
          {w.none}
        </p>
      )}
      {hits.length > 0 && (
        <ul aria-label={w.items}>
          {hits.map((hit) => {
            const chat = chats.get(hit.chat_ref);
            if (!chat) return null;
            const title = chatTitle(chat, lang);
            return (
              <li key={hit.message_id}>
                <button
                  type="button"
                  data-row
                  className="grid w-full min-w-0 cursor-pointer gap-0.5 border-b border-line px-3 py-2 text-left text-text hover:bg-bg focus-visible:bg-selected"
                  onClick={() => choose(hit, chat)}
                >
                  <RowHeading title={title} at={hit.created_at} lang={lang} />
                  <span className="line-clamp-2 text-[13px] break-words text-muted">
                    {hitParts(hit.text, terms).map((part, i) =>
                      part.match ? (
                        <mark key={i} className="rounded-sm bg-progress-bg text-text">
                          {part.text}
                        </mark>
                      ) : (
                        part.text
                      ),
                    )}
                  </span>
                  <MessengerMark transport={chat.transport} channel={chat.channel_name} />
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {found.hasNextPage && (
        <div className="p-2 text-center">
          <Button variant="quiet" disabled={found.isFetchingNextPage} onClick={() => void found.fetchNextPage()}>
            {w.more}
          </Button>
        </div>
      )}
      {found.isError && (
        <p className="px-3 py-2 text-[13px] text-danger" role="alert">
          {w.failed} {refusalOf(found.error, {}, lang).message}
        </p>
      )}
    </section>
  );
}
