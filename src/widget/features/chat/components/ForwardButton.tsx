import { IconButton } from '@/components/ui/Button.tsx';
import { useWords } from '@/lib/i18n.ts';
import { forwardWords } from '../forward-words.ts';
import { forwardedContent, useForward } from '../store/forward.ts';
import type { ChatMessage } from '../store/message.ts';

/** The message menu's item that starts a forward; shown only where the message has something to forward. */
export function ForwardButton({ message }: { message: ChatMessage }) {
  const w = useWords(forwardWords);
  const start = useForward((s) => s.start);
  const content = forwardedContent(message);
  if (!content) return null;
  return (
    <IconButton aria-label={w.forwardLabel} title={w.forward} aria-haspopup="dialog" onClick={(e) => start(content, e.currentTarget)}>
      <svg className="block flex-none" viewBox="0 0 24 24" width={14} height={14} aria-hidden="true" focusable="false">
        <path d="M14 8l5 4.5-5 4.5M18.5 12.5H10a5 5 0 0 0-5 5V19" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" strokeLinejoin="round" />
      </svg>
    </IconButton>
  );
}
