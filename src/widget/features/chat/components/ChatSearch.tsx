import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Button, IconButton } from '@/components/ui/Button.tsx';
import { inputClass } from '@/components/ui/Input.tsx';
import { useLang, useWords } from '@/lib/i18n.ts';
import { refusalOf } from '@/lib/refusal.ts';
import { useChatSearch } from '../api/chat-tools.ts';
import { useJump } from '../store/jump.ts';
import { toolWords } from '../tool-words.ts';
import { messageWhen } from './format.ts';

const SEARCH_DELAY_MS = 300;

/** The text with each occurrence of `q` (any case) marked. */
function marked(text: string, q: string): ReactNode[] {
  const parts: ReactNode[] = [];
  const lower = text.toLocaleLowerCase();
  const needle = q.toLocaleLowerCase();
  let from = 0;
  for (let at = lower.indexOf(needle); at >= 0 && needle; at = lower.indexOf(needle, from)) {
    parts.push(text.slice(from, at), <mark key={at} className="rounded-sm bg-progress-bg text-inherit">{text.slice(at, at + needle.length)}</mark>);
    from = at + needle.length;
  }
  parts.push(text.slice(from));
  return parts;
}

/** A search icon, drawn in the text's colour. */
const SearchMark = () => (
  <svg viewBox="0 0 24 24" width={18} height={18} aria-hidden="true" focusable="false" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round">
    <circle cx="11" cy="11" r="6.5" />
    <path d="m16 16 4.5 4.5" />
  </svg>
);

/**
 * Search inside the open chat: the header's button opens a box under it whose matches (newest first, asked of the
 * server) lead the history to the message. Escape or ✕ closes it and gives the focus back to the button.
 */
export function ChatSearch({ chatRef }: { chatRef: string }) {
  const lang = useLang();
  const w = useWords(toolWords).search;
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  const toggle = useRef<HTMLButtonElement>(null);
  const found = useChatSearch(chatRef, q);
  const jump = useJump((s) => s.jump);
  const missed = useJump((s) => s.missed);
  const target = useJump((s) => s.target);
  useEffect(() => {
    const t = setTimeout(() => setQ(text.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(t);
  }, [text]);

  const close = () => {
    setOpen(false);
    setText('');
    toggle.current?.focus();
  };
  const matches = found.data?.pages.flatMap((p) => p.messages) ?? [];

  return (
    <>
      <IconButton ref={toggle} className="flex-none" aria-label={w.open} title={w.open} aria-expanded={open} onClick={() => (open ? close() : setOpen(true))}>
        <SearchMark />
      </IconButton>
      {open && (
        <div
          className="absolute top-full right-0 left-0 z-20 flex max-h-[60vh] flex-col border-b border-line bg-panel shadow-md sm:left-auto sm:w-96 sm:border-l"
          role="search"
          aria-label={w.label}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.stopPropagation();
              close();
            }
          }}
        >
          <div className="flex items-center gap-1 p-2">
            <input
              type="search"
              className={`${inputClass} min-w-0 flex-1`}
              aria-label={w.label}
              placeholder={w.placeholder}
              value={text}
              maxLength={200}
              autoFocus
              onChange={(e) => setText(e.target.value)}
            />
            <IconButton aria-label={w.close} title={w.close} onClick={close}>
              ✕
            </IconButton>
          </div>
          {q !== '' && (
            <div className="min-h-0 overflow-y-auto border-t border-line">
              {found.isPending && <p className="m-0 p-3 text-sm text-muted" role="status">{w.searching}</p>}
              {found.isError && <p className="m-0 p-3 text-sm text-danger" role="alert">{w.failed} {refusalOf(found.error, {}, lang).message}</p>}
              {found.isSuccess && matches.length === 0 && <p className="m-0 p-3 text-sm text-muted" role="status">{w.none}</p>}
              {missed && <p className="m-0 px-3 pt-2 text-sm text-danger" role="alert">{w.notLoaded}</p>}
              {matches.length > 0 && (
                <ul className="m-0 list-none p-0" aria-label={w.results}>
                  {matches.map((m) => (
                    <li key={m.message_id}>
                      <button
                        type="button"
                        className="block w-full cursor-pointer border-0 border-b border-line bg-transparent px-3 py-2 text-left text-sm text-text hover:bg-selected focus-visible:bg-selected"
                        aria-busy={target === m.message_id}
                        onClick={() => jump(m.message_id)}
                      >
                        <span className="block text-xs text-muted">{messageWhen(m.created_at, lang)}</span>
                        <span className="line-clamp-2 break-words">{marked(m.text ?? '', q)}</span>
                      </button>
                    </li>
                  ))}
                </ul>
              )}
              {found.hasNextPage && (
                <Button variant="quiet" size="small" className="m-2" disabled={found.isFetchingNextPage} onClick={() => void found.fetchNextPage()}>
                  {w.more}
                </Button>
              )}
            </div>
          )}
        </div>
      )}
    </>
  );
}
