import { LinkButton } from '@/components/ui/Button.tsx';
import { useWords } from '@/lib/i18n.ts';
import { keyboardWords } from '../keyboard-words.ts';
import type { AttachedKeyboard } from '../store/keyboard-draft.ts';
import { shownKeyboard } from '../store/keyboard.ts';
import { MessageKeyboard } from './MessageKeyboard.tsx';

/**
 * The buttons waiting in the composer to go with the next message, as the customer will see them; the agent may
 * edit or remove them. `stale`: the chat's channel (a new chat's chosen one) does not take them, so they block the send.
 */
export function KeyboardAttached({ attached, stale, onEdit, onRemove }: { attached: AttachedKeyboard; stale: boolean; onEdit: (() => void) | null; onRemove(): void }) {
  const w = useWords(keyboardWords);
  const shown = shownKeyboard(attached.keyboard);
  return (
    <div className="mb-1.5 border-l-[3px] border-accent px-2.5 py-1 text-xs" role="group" aria-label={w.attached}>
      <div className="flex items-center justify-between gap-2 text-muted">
        <span className="min-w-0 truncate">{w.attached}</span>
        <span className="flex flex-none gap-3">
          {onEdit && (
            <LinkButton aria-label={w.editLabel} onClick={onEdit}>
              {w.edit}
            </LinkButton>
          )}
          <LinkButton aria-label={w.removeAllLabel} onClick={onRemove}>
            {w.removeAll}
          </LinkButton>
        </span>
      </div>
      {shown && <MessageKeyboard keyboard={shown} />}
      {stale && <p className="m-0 mt-1 text-danger">{w.stale}</p>}
    </div>
  );
}

/** What the gateway said it dropped or left out of the buttons just sent (its own English words). */
export function KeyboardWarnings({ warnings, onDismiss }: { warnings: string[]; onDismiss(): void }) {
  const w = useWords(keyboardWords);
  return (
    <div className="mb-2 flex items-start justify-between gap-2 rounded-md bg-progress-bg px-2.5 py-1.5 text-xs text-progress" role="status">
      <div className="min-w-0">
        <strong>{w.changed}</strong>
        <ul className="m-0 pl-5">
          {warnings.map((warning) => (
            <li key={warning} lang="en" className="[overflow-wrap:anywhere]">
              {warning}
            </li>
          ))}
        </ul>
      </div>
      <LinkButton className="flex-none" onClick={onDismiss}>
        {w.dismiss}
      </LinkButton>
    </div>
  );
}
