import { useEffect, useId, useRef, useState, type RefObject } from 'react';
import { IconButton } from '@/components/ui/Button.tsx';
import { useLang, useWords } from '@/lib/i18n.ts';
import { refusalOf } from '@/lib/refusal.ts';
import { useMarkAnswered } from '../api/chat-tools.ts';
import { searchWords } from '../search-words.ts';

interface Props {
  chatRef: string;
  /** The chat's name, for the button's accessible name. */
  title: string;
  /** The row's own button, which takes the focus back once the chat is marked (this menu then goes). */
  row: RefObject<HTMLButtonElement | null>;
}

/** Room below the button the menu needs; with less, it opens upwards, inside the list. */
const MENU_HEIGHT = 56;

/**
 * A waiting chat row's "⋯": a menu with "Mark as answered", the open chat header's action, for a chat that needs
 * no answer, without opening it. Escape, or the focus leaving it, closes the menu; the focus goes back to "⋯".
 */
export function ChatRowMenu({ chatRef, title, row }: Props) {
  const lang = useLang();
  const w = useWords(searchWords).menu;
  const mark = useMarkAnswered(chatRef);
  const [open, setOpen] = useState<'down' | 'up' | null>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const item = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  useEffect(() => {
    if (open) item.current?.focus();
  }, [open]);

  const show = () => {
    const button = toggle.current!.getBoundingClientRect();
    const list = toggle.current!.closest('[data-scroll]')?.getBoundingClientRect();
    setOpen(list && list.bottom - button.bottom < MENU_HEIGHT ? 'up' : 'down');
  };
  const close = (focus: boolean) => {
    setOpen(null);
    if (focus) toggle.current?.focus();
  };

  return (
    <div
      className="absolute right-2 bottom-1.5"
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) {
          e.stopPropagation();
          close(true);
        }
      }}
      onBlur={(e) => {
        if (open && !e.currentTarget.contains(e.relatedTarget)) close(false);
      }}
    >
      <IconButton
        ref={toggle}
        className="grid size-7 place-items-center text-base leading-none"
        aria-label={w.open(title)}
        title={w.label}
        aria-haspopup="menu"
        aria-expanded={open !== null}
        aria-controls={open ? menuId : undefined}
        onClick={() => (open ? close(true) : show())}
      >
        <span aria-hidden="true">⋯</span>
      </IconButton>
      {open && (
        <div
          id={menuId}
          role="menu"
          aria-label={w.label}
          className={`absolute right-0 z-20 min-w-44 rounded-lg border border-line bg-panel p-1 shadow-md ${open === 'up' ? 'bottom-full mb-1' : 'top-full mt-1'}`}
        >
          <button
            ref={item}
            type="button"
            role="menuitem"
            className="block w-full cursor-pointer rounded-md border-0 bg-transparent px-2.5 py-1.5 text-left text-sm whitespace-nowrap text-text hover:bg-selected focus-visible:bg-selected"
            disabled={mark.isPending}
            onClick={() => {
              setOpen(null);
              // The row loses its "⋯" once marked: the focus waits on the row, not on a button about to go.
              row.current?.focus();
              mark.mutate();
            }}
          >
            <span aria-hidden="true">✓ </span>
            {w.answered}
          </button>
        </div>
      )}
      {mark.isError && (
        <p className="absolute right-0 bottom-full z-20 m-0 mb-1 w-max max-w-64 rounded-md bg-danger-bg px-2.5 py-1 text-xs text-danger shadow-md" role="alert">
          <strong>{w.notMarked}</strong> {refusalOf(mark.error, {}, lang).message}
        </p>
      )}
    </div>
  );
}
