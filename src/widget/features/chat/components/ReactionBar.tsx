import { useEffect, useRef, useState } from 'react';
import { IconButton } from '@/components/ui/Button.tsx';
import { useWords } from '@/lib/i18n.ts';
import { useReactToMessage } from '../api/react-message.ts';
import { reactionWords } from '../reaction-words.ts';
import type { ChatMessage } from '../store/message.ts';

/** The quick choice: reactions every messenger with reactions takes (Telegram's bots take a fixed set that has them). */
export const quickReactions = ['👍', '❤', '🔥', '🙏', '😁', '😢'] as const;

/** The agent's side's reaction to the message, if any. */
const ownOf = (m: ChatMessage) => m.reactions?.find((r) => r.by === 'agent')?.emoji ?? null;

/** Sets the emoji as the account's reaction, or takes it back when it is the account's already. */
function useToggle(m: ChatMessage) {
  const react = useReactToMessage();
  const own = ownOf(m);
  return {
    failed: react.isError,
    toggle: (emoji: string) => {
      if (m.message_id) react.mutate({ messageId: m.message_id, emoji: own === emoji ? null : emoji });
    },
  };
}

/**
 * A message's reactions under it, one chip per emoji with how many gave it; the account's own is marked, and where the
 * agent may react, pressing a chip gives that emoji (or takes the agent's back).
 */
export function ReactionChips({ message, canReact }: { message: ChatMessage; canReact: boolean }) {
  const w = useWords(reactionWords);
  const { toggle, failed } = useToggle(message);
  const reactions = message.reactions ?? [];
  if (reactions.length === 0 && !failed) return null;
  const counts = new Map<string, { count: number; yours: boolean }>();
  for (const r of reactions) {
    const c = counts.get(r.emoji) ?? { count: 0, yours: false };
    counts.set(r.emoji, { count: c.count + 1, yours: c.yours || r.by === 'agent' });
  }
  return (
    <span className="gw-reactions mt-1 flex flex-wrap items-center gap-1">
      {[...counts].map(([emoji, { count, yours }]) => {
        const chip = `rounded-full border border-solid px-1.5 py-0 text-[13px] leading-5 ${yours ? 'border-accent bg-selected' : 'border-line bg-transparent'}`;
        return canReact ? (
          <button
            key={emoji}
            type="button"
            className={`cursor-pointer text-text ${chip}`}
            aria-pressed={yours}
            aria-label={w.chip(emoji, count, yours)}
            title={yours ? w.take(emoji) : w.give(emoji)}
            onClick={() => toggle(emoji)}
          >
            {emoji} {count > 1 ? count : ''}
          </button>
        ) : (
          <span key={emoji} className={chip} role="img" aria-label={w.chip(emoji, count, yours)}>
            {emoji} {count > 1 ? count : ''}
          </span>
        );
      })}
      {failed && <span className="text-xs text-danger">{w.failed}</span>}
    </span>
  );
}

/** The action that opens the quick choice of reactions beside a message; Escape or a choice closes it. */
export function ReactButton({ message }: { message: ChatMessage }) {
  const w = useWords(reactionWords);
  const [open, setOpen] = useState(false);
  const { toggle } = useToggle(message);
  const own = ownOf(message);
  const opener = useRef<HTMLButtonElement>(null);
  const first = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (open) first.current?.focus();
  }, [open]);
  const close = () => {
    setOpen(false);
    requestAnimationFrame(() => opener.current?.focus());
  };
  return (
    <span className="relative">
      <IconButton ref={opener} aria-label={w.reactLabel} title={w.react} aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        <svg viewBox="0 0 24 24" width={16} height={16} aria-hidden="true" focusable="false" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round">
          <circle cx="12" cy="12" r="9" />
          <path d="M8.5 14.5c1.8 2 5.2 2 7 0M9 9.5h.01M15 9.5h.01" />
        </svg>
      </IconButton>
      {open && (
        <span
          role="group"
          aria-label={w.choose}
          className="absolute bottom-full left-1/2 z-10 mb-1 flex -translate-x-1/2 gap-0.5 rounded-full border border-solid border-line bg-panel px-1 py-0.5 shadow-md"
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.stopPropagation();
              close();
            }
          }}
        >
          {quickReactions.map((emoji, i) => (
            <button
              key={emoji}
              ref={i === 0 ? first : undefined}
              type="button"
              className={`cursor-pointer rounded-full border-0 px-1 text-lg leading-7 hover:bg-line focus-visible:bg-line ${own === emoji ? 'bg-selected' : 'bg-transparent'}`}
              aria-pressed={own === emoji}
              aria-label={own === emoji ? w.take(emoji) : w.give(emoji)}
              onClick={() => {
                toggle(emoji);
                close();
              }}
            >
              {emoji}
            </button>
          ))}
        </span>
      )}
    </span>
  );
}
