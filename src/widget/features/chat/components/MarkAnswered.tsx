import { Button } from '@/components/ui/Button.tsx';
import { useLang, useWords } from '@/lib/i18n.ts';
import { refusalOf } from '@/lib/refusal.ts';
import { useMarkAnswered } from '../api/chat-tools.ts';
import { toolWords } from '../tool-words.ts';

/**
 * "Mark answered", for a chat waiting for an answer that needs none (a "thank you"): the counter goes to zero as
 * a reply would set it, with nothing sent. Shown only while the chat waits.
 */
export function MarkAnswered({ chatRef, waiting }: { chatRef: string; waiting: boolean }) {
  const lang = useLang();
  const w = useWords(toolWords).answered;
  const mark = useMarkAnswered(chatRef);
  if (!waiting && !mark.isError) return null;
  return (
    <>
      {waiting && (
        <Button size="small" className="flex-none text-xs" title={w.label} disabled={mark.isPending} onClick={() => mark.mutate()}>
          <span aria-hidden="true">✓</span>
          {/* At phone widths the mark alone leaves the contact's name room; the words stay its name. */}
          <span className="max-sm:sr-only">{w.mark}</span>
        </Button>
      )}
      {mark.isError && (
        <p className="absolute top-full right-2 z-20 m-0 mt-1 rounded-md bg-danger-bg px-2.5 py-1 text-xs text-danger shadow-md" role="alert">
          <strong>{w.notMarked}</strong> {refusalOf(mark.error, {}, lang).message}
        </p>
      )}
    </>
  );
}
