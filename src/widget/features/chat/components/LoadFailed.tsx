import { LinkButton } from '@/components/ui/Button.tsx';
import { useWords } from '@/lib/i18n.ts';
import { words } from '../words.ts';

/** A read that failed, said in the list or history it left empty, with a way to try again. */
export function LoadFailed({ what, error, className, onRetry }: { what: string; error: string | null; className: string; onRetry: () => void }) {
  const w = useWords(words);
  return (
    <div className={`text-danger ${className}`} role="alert">
      {what}: {error}{' '}
      <LinkButton onClick={onRetry}>{w.tryAgain}</LinkButton>
    </div>
  );
}
