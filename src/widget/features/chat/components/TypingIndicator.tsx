import { catalog, useWords } from '@/lib/i18n.ts';
import { useCustomerTyping } from '../hooks/use-typing.ts';

const typingWords = catalog({ typing: 'typing…' }, { ru: { typing: 'печатает…' }, es: { typing: 'escribiendo…' }, pt: { typing: 'digitando…' } });

/** "typing…" under the history while the chat's customer types; a polite status, so screen readers hear it once. */
export function TypingIndicator({ chatRef, who }: { chatRef: string | null; who: string }) {
  const w = useWords(typingWords);
  const typing = useCustomerTyping(chatRef);
  return (
    <p className="gw-typing m-0 h-5 px-4 text-xs text-muted italic" role="status" aria-live="polite">
      {typing && (
        <>
          {who} · {w.typing}
        </>
      )}
    </p>
  );
}
