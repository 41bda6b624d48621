import { EmojiPicker } from 'frimousse';
import { useLayoutEffect, useState, type CSSProperties, type RefObject } from 'react';
import { useLang, useWords } from '@/lib/i18n.ts';
import { emojiWords } from '../emoji-words.ts';

const oneBased = (index: number | undefined) => (index === undefined ? undefined : index + 1);

/** Served by the gateway (the build puts Emojibase's files there): the picker fetches nothing from elsewhere. */
const EMOJI_DATA = '/emoji';

/**
 * The picker itself (Frimousse, styled here): a search, the emoji by category, arrow keys to move and Enter to pick.
 * In the frame's language: its names and search words are the language's.
 */
export default function EmojiPanel({ id, anchor, onPick }: { id: string; anchor: RefObject<HTMLElement | null>; onPick(emoji: string): void }) {
  const lang = useLang();
  const w = useWords(emojiWords);
  // Above the button, kept inside the frame: a narrow frame has no room for it to start at the button.
  const [place, setPlace] = useState<CSSProperties>({ visibility: 'hidden' });
  useLayoutEffect(() => {
    const at = anchor.current?.getBoundingClientRect();
    if (!at) return;
    const width = Math.min(304, window.innerWidth - 16);
    setPlace({ width, bottom: window.innerHeight - at.top + 8, left: Math.max(8, Math.min(at.left, window.innerWidth - width - 8)) });
  }, [anchor]);
  return (
    <div id={id} role="dialog" aria-label={w.label} className="fixed z-30 rounded-lg border border-line bg-panel shadow-md" style={place}>
      <EmojiPicker.Root
        className="isolate flex h-[min(320px,calc(100vh-7rem))] w-full flex-col"
        locale={lang}
        emojibaseUrl={`${location.origin}${EMOJI_DATA}`}
        columns={8}
        onEmojiSelect={({ emoji }) => onPick(emoji)}
      >
        <EmojiPicker.Search autoFocus aria-label={w.search} placeholder={w.search} className="z-10 m-2 mb-1 rounded-md border border-line bg-panel px-2.5 py-1.5 text-sm text-text placeholder:text-muted" />
        <EmojiPicker.Viewport className="relative flex-1 outline-hidden">
          <EmojiPicker.Loading className="absolute inset-0 flex items-center justify-center text-sm text-muted">{w.loading}</EmojiPicker.Loading>
          <EmojiPicker.Empty className="absolute inset-0 flex items-center justify-center text-sm text-muted">{w.empty}</EmojiPicker.Empty>
          <EmojiPicker.List
            className="pb-1.5 select-none"
            components={{
              CategoryHeader: ({ category, ...props }) => (
                <div className="bg-panel px-3 pt-2 pb-1 text-xs font-semibold text-muted" {...props}>
                  {category.label}
                </div>
              ),
              // Frimousse numbers rows and columns from 0; ARIA from 1 (a screen reader would say "row 0"). Rows are
              // numbered from 1 here; the picker, which finds a row by its number to scroll it into view by keyboard,
              // then finds the row above it, so a row's bottom margin keeps one more row in view.
              Row: ({ children, ...props }) => (
                <div {...props} className="scroll-mt-1.5 scroll-mb-10 px-1.5" aria-rowindex={oneBased(props['aria-rowindex'])}>
                  {children}
                </div>
              ),
              Emoji: ({ emoji, ...props }) => (
                <button {...props} className="flex size-9 items-center justify-center rounded-md text-xl data-[active]:bg-selected" aria-colindex={oneBased(props['aria-colindex'])}>
                  {emoji.emoji}
                </button>
              ),
            }}
          />
        </EmojiPicker.Viewport>
      </EmojiPicker.Root>
    </div>
  );
}
