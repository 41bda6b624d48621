import { lazy, Suspense, useId, type RefObject } from 'react';
import { Button } from '@/components/ui/Button.tsx';
import { useWords } from '@/lib/i18n.ts';
import { emojiWords } from '../emoji-words.ts';
import { usePopover } from '@/lib/popover.ts';

// The picker and its library load when the agent first opens it, not with the frame.
const EmojiPanel = lazy(() => import('./EmojiPanel.tsx'));

interface Props {
  /** The composer's text box: the emoji goes where its caret is. */
  box: RefObject<HTMLTextAreaElement | null>;
  onText(change: (text: string) => string): void;
}

/**
 * The composer's emoji button and its picker: a chosen emoji goes in at the caret (or over the selected words) and
 * the picker stays open for another; Escape, or the focus leaving it, closes it.
 */
export function EmojiButton({ box, onText }: Props) {
  const w = useWords(emojiWords);
  const { open, setOpen, toggle, wrapper } = usePopover();
  const panelId = useId();

  const insert = (emoji: string) => {
    const el = box.current;
    const start = el?.selectionStart ?? Number.MAX_SAFE_INTEGER;
    const end = el?.selectionEnd ?? start;
    onText((text) => text.slice(0, start) + emoji + text.slice(end));
    requestAnimationFrame(() => {
      if (!el) return;
      const at = Math.min(start, el.value.length - emoji.length) + emoji.length;
      el.setSelectionRange(at, at);
    });
  };

  return (
    <div
      className="relative flex-none"
      {...wrapper}
    >
      <Button ref={toggle} className="px-2.5" aria-label={w.open} title={w.open} aria-expanded={open} aria-controls={open ? panelId : undefined} onClick={() => setOpen(!open)}>
        <span aria-hidden="true" className="block size-[18px] text-base leading-[18px]">
          ☺
        </span>
      </Button>
      {open && (
        <Suspense fallback={null}>
          <EmojiPanel id={panelId} anchor={toggle} onPick={insert} />
        </Suspense>
      )}
    </div>
  );
}
