import { catalog, useWords } from '@/lib/i18n.ts';
import { useCustomerTyping } from '../hooks/use-typing.ts';

const typingWords = catalog({ typing: 'typing…', label: (who: string) => `${who} is typing` }, { ru: { typing: 'печатает…', label: (who: string) => `${who} печатает` } });

/** "typing…" under the history while the chat's customer types; a polite status, so screen readers hear it once. */
export function TypingIndicator({ chatRef, who }: { chatRef: string | null; who: string }) {
  const w = useWords(typingWords);
  const typing = useCustomerTyping(chatRef);
  return (
    <p className="gw-typing m-0 h-5 px-4 text-xs text-muted italic" role="status" aria-live="polite">
      {typing && (
        <span aria-label={w.label(who)}>
          <span aria-hidden="true">
            {who} · {w.typing}
          </span>
        </span>
      )}
    </p>
  );
}
