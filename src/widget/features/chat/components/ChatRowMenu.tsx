import { useState, type RefObject } from 'react';
import { IconButton } from '@/components/ui/Button.tsx';
import { useLang, useWords } from '@/lib/i18n.ts';
import { refusalOf } from '@/lib/refusal.ts';
import { useMarkAnswered } from '../api/chat-tools.ts';
import { searchWords } from '../search-words.ts';
import { toolWords } from '../tool-words.ts';
import { usePopover } from '@/lib/popover.ts';

interface Props {
  chatRef: string;
  /** The chat's name, for the button's accessible name. */
  title: string;
  /** The row's own button, which takes the focus back once the chat is marked (this menu then goes). */
  row: RefObject<HTMLButtonElement | null>;
}

/**
 * A waiting chat row's "⋯": a menu with "Mark as answered", the open chat header's action, for a chat that needs
 * no answer, without opening it. Escape, or the focus leaving it, closes the menu; the focus goes back to "⋯". It
 * opens downwards: under the last row the list scrolls to show it.
 */
export function ChatRowMenu({ chatRef, title, row }: Props) {
  const w = useWords(searchWords).menu;
  const { open, setOpen, toggle, wrapper } = usePopover();
  // Every waiting row has the button; the mark's state is kept from the first time its menu opens.
  const [used, setUsed] = useState(false);
  return (
    <div
      className="absolute right-2 bottom-1.5"
      {...wrapper}
    >
      <IconButton
        ref={toggle}
        className="grid size-7 place-items-center text-base leading-none"
        aria-label={w.open(title)}
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => {
          setUsed(true);
          setOpen(!open);
        }}
      >
        <span aria-hidden="true">⋯</span>
      </IconButton>
      {used && <RowMenuBody chatRef={chatRef} row={row} open={open} close={() => setOpen(false)} />}
    </div>
  );
}

/** The menu itself, and what marking the chat answered said when it could not. */
function RowMenuBody({ chatRef, row, open, close }: Pick<Props, 'chatRef' | 'row'> & { open: boolean; close(): void }) {
  const lang = useLang();
  const w = useWords(searchWords).menu;
  const notMarked = useWords(toolWords).answered.notMarked;
  const mark = useMarkAnswered(chatRef);
  return (
    <>
      {open && (
        <div
          role="menu"
          aria-label={w.label}
          className="absolute top-full right-0 z-20 mt-1 min-w-44 rounded-lg border border-line bg-panel p-1 shadow-md"
        >
          <button
            autoFocus
            type="button"
            role="menuitem"
            className="block w-full cursor-pointer rounded-md px-2.5 py-1.5 text-left text-sm whitespace-nowrap text-text hover:bg-selected focus-visible:bg-selected"
            disabled={mark.isPending}
            onClick={() => {
              close();
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
        <p className="absolute right-0 bottom-full z-20 mb-1 w-max max-w-64 rounded-md bg-danger-bg px-2.5 py-1 text-xs text-danger shadow-md" role="alert">
          <strong>{notMarked}</strong> {refusalOf(mark.error, {}, lang).message}
        </p>
      )}
    </>
  );
}
