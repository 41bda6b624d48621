import type { QuickReply } from '../../../../contract/bff-quick-replies.ts';
import { LinkButton } from '@/components/ui/Button.tsx';
import { useWords } from '@/lib/i18n.ts';
import { quickReplyWords } from '../quick-reply-words.ts';

interface Props {
  listId: string;
  optionId(i: number): string;
  query: string;
  found: QuickReply[];
  active: number;
  state: 'loading' | 'ready' | 'failed';
  total: number;
  onPick(reply: QuickReply): void;
  onHover(i: number): void;
  onManage(): void;
}

/**
 * The quick replies a `/word` in the composer finds, above the box. Options are pressed with the pointer without
 * taking the focus from the box, where the keys work.
 */
export function QuickReplyMenu({ listId, optionId, query, found, active, state, total, onPick, onHover, onManage }: Props) {
  const w = useWords(quickReplyWords);
  const note = state === 'loading' ? w.loading : state === 'failed' ? w.loadFailed : total === 0 ? w.none : found.length === 0 ? w.noMatch(query) : null;
  return (
    <div className="gw-quick-replies absolute inset-x-3 bottom-full z-20 mb-1 rounded-lg border border-line bg-panel text-sm shadow-md">
      {note !== null && (
        <p className="m-0 px-3 py-2 text-muted" role="status">
          {note}
        </p>
      )}
      {/* A listbox with no option is not one: it shows only with something to choose (the note says why not). */}
      {found.length > 0 && (
        <ul id={listId} role="listbox" aria-label={w.list} className="m-0 max-h-56 list-none overflow-y-auto p-1">
          {found.map((reply, i) => (
            <li
              key={reply.id}
              id={optionId(i)}
              role="option"
              aria-selected={i === active}
              className={`cursor-pointer rounded-md px-2 py-1.5 ${i === active ? 'bg-selected' : ''}`}
              onMouseDown={(e) => e.preventDefault()}
              onMouseEnter={() => onHover(i)}
              onClick={() => onPick(reply)}
            >
              <span className="font-semibold">/{reply.shortcut}</span> <span className="text-muted">{reply.text.length > 120 ? `${reply.text.slice(0, 120)}…` : reply.text}</span>
            </li>
          ))}
        </ul>
      )}
      <div className="flex items-center justify-between gap-2 border-t border-line px-3 py-1.5 text-xs text-muted">
        <span className="max-xs:hidden">{w.hint}</span>
        <LinkButton onMouseDown={(e) => e.preventDefault()} onClick={onManage}>
          {w.manage}
        </LinkButton>
      </div>
    </div>
  );
}
