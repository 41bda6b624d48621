import { useEffect, useId, useReducer, useRef } from 'react';
import type { KeyboardKind } from '../../../../contract/channels.ts';
import { Button, IconButton } from '@/components/ui/Button.tsx';
import { useWords } from '@/lib/i18n.ts';
import { keyboardWords } from '../keyboard-words.ts';
import { checkDraft, draftReducer, newDraft, toKeyboard, type AttachedKeyboard, type DraftAction, type ReplyOption } from '../store/keyboard-draft.ts';
import { KeyboardBuilderButton } from './KeyboardBuilderButton.tsx';

interface Props {
  kind: KeyboardKind;
  /** The buttons already attached, to edit; a new draft when they were of another dialect. */
  initial: AttachedKeyboard | null;
  onAttach(attached: AttachedKeyboard): void;
  onClose(): void;
}

const replyOptions: readonly ReplyOption[] = ['oneTime', 'fitted', 'selective'];

/**
 * The buttons an agent puts on the message being written, in the dialect of the chat's channel. Every field is
 * checked as it is typed against the limits the gateway applies (counts beside the fields, what is wrong under
 * them); "Attach" stays off until all is well, so nothing attached here is refused or dropped on sending.
 * Escape, Cancel or the close button leave the attached buttons as they were. It sits inside the composer's form
 * (a dialog of its own on screen), so it is no form itself: Enter in a field attaches, and never sends the message.
 */
export function KeyboardBuilder({ kind, initial, onAttach, onClose }: Props) {
  const w = useWords(keyboardWords);
  const [draft, dispatch] = useReducer(draftReducer, initial?.draft.kind === kind ? initial.draft : newDraft(kind));
  const check = checkDraft(draft);
  const dialog = useRef<HTMLDialogElement>(null);
  const base = useId();
  const idOf = (buttonId: number) => `${base}-b${buttonId}`;
  const addId = `${base}-add`;
  // A field to focus once the change that brings it is drawn.
  const focusNext = useRef<string | null>(null);

  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
    // The agent came to write buttons: the first one's words take the focus.
    const first = draft.rows[0]?.[0];
    document.getElementById(first ? `${idOf(first.id)}-text` : addId)?.focus();
    // Only as it opens.
  }, []);
  useEffect(() => {
    if (focusNext.current === null) return;
    document.getElementById(focusNext.current)?.focus();
    focusNext.current = null;
  });

  const add = (action: DraftAction & { type: 'addRow' | 'addButton' }) => {
    focusNext.current = `${idOf(draft.nextId)}-text`;
    dispatch(action);
  };
  const remove = (id: number) => {
    const all = draft.rows.flat();
    const at = all.findIndex((b) => b.id === id);
    const next = all[at - 1] ?? all[at + 1];
    focusNext.current = next ? `${idOf(next.id)}-text` : addId;
    dispatch({ type: 'remove', id });
  };
  const attach = () => {
    if (check.valid) onAttach({ draft, keyboard: toKeyboard(draft) });
  };

  const business = kind === 'business';
  const full = check.max !== null && check.count >= check.max;
  const summary = check.empty ? w.empty : check.tooMany && check.max !== null ? w.full(check.max) : check.problems > 0 ? w.toFix(check.problems) : w.ready;
  const buttonOf = (b: (typeof draft.rows)[number][number], r: number, i: number) => {
    const name = business ? w.button(i + 1) : w.buttonOfRow(r + 1, i + 1);
    return (
      <KeyboardBuilderButton
        key={b.id}
        idBase={idOf(b.id)}
        name={name}
        draft={draft}
        button={b}
        checks={check.buttons.get(b.id)}
        onEdit={(patch) => dispatch({ type: 'edit', id: b.id, patch })}
        onRemove={() => remove(b.id)}
      />
    );
  };

  return (
    <dialog
      ref={dialog}
      className="m-auto max-h-[85vh] w-[min(28rem,calc(100vw-1rem))] flex-col rounded-lg border border-line bg-panel p-0 text-text shadow-md open:flex backdrop:bg-black/40"
      aria-labelledby={`${base}-title`}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') e.stopPropagation();
        if (e.key === 'Enter' && e.target instanceof HTMLInputElement) {
          e.preventDefault();
          attach();
        }
      }}
    >
      <div className="flex min-h-0 flex-1 flex-col">
        <div className="flex items-center gap-2 border-b border-line px-3 py-2">
          <h2 id={`${base}-title`} className="m-0 min-w-0 flex-1 text-[15px] font-semibold">
            {w.title}
          </h2>
          <span className={`text-xs ${check.tooMany ? 'font-semibold text-danger' : 'text-muted'}`}>{w.count(check.count, check.max)}</span>
          <IconButton aria-label={w.close} title={w.close} onClick={onClose}>
            ✕
          </IconButton>
        </div>
        <div className="flex min-h-0 flex-1 flex-col gap-3 overflow-y-auto p-3">
          {kind === 'telegram_bot' && (
            <fieldset className="m-0 flex flex-col gap-1 border-0 p-0">
              <legend className="mb-1 p-0 text-xs font-semibold">{w.markup}</legend>
              {(['inline', 'reply'] as const).map((markup) => (
                <label key={markup} className="flex items-center gap-2 text-sm">
                  <input type="radio" name={`${base}-markup`} value={markup} checked={draft.markup === markup} onChange={() => dispatch({ type: 'markup', markup })} />
                  {w.markups[markup]}
                </label>
              ))}
              {draft.markup === 'reply' &&
                replyOptions.map((option) => (
                  <label key={option} className="flex items-center gap-2 pl-5 text-sm">
                    <input type="checkbox" checked={draft.options[option]} onChange={(e) => dispatch({ type: 'option', option, on: e.target.checked })} />
                    {w.options[option]}
                  </label>
                ))}
            </fieldset>
          )}
          {business ? (
            <div className="flex flex-col gap-2">{draft.rows.flat().map((b, i) => buttonOf(b, 0, i))}</div>
          ) : (
            draft.rows.map((row, r) => (
              <fieldset key={row[0]!.id} className="m-0 flex min-w-0 flex-col gap-2 border-0 border-l-[3px] border-line p-0 pl-2">
                <legend className="mb-1 p-0 text-xs font-semibold">{w.row(r + 1)}</legend>
                <div className="flex flex-col gap-2">{row.map((b, i) => buttonOf(b, r, i))}</div>
                <div>
                  <Button size="small" disabled={full} onClick={() => add({ type: 'addButton', row: r })}>
                    {w.addToRow(r + 1)}
                  </Button>
                </div>
              </fieldset>
            ))
          )}
          <div>
            <Button id={addId} size="small" disabled={full} onClick={() => add(business ? { type: 'addButton', row: 0 } : { type: 'addRow' })}>
              {business ? w.addButton : w.addRow}
            </Button>
          </div>
          {full && check.max !== null && <p className="m-0 text-xs text-muted">{w.full(check.max)}</p>}
        </div>
        <div className="flex flex-wrap items-center justify-end gap-2 border-t border-line p-3">
          <p className={`m-0 min-w-0 flex-1 text-xs ${check.valid ? 'text-muted' : 'text-danger'}`} role="status">
            {summary}
          </p>
          <Button onClick={onClose}>{w.cancel}</Button>
          <Button variant="primary" disabled={!check.valid} onClick={attach}>
            {w.attach}
          </Button>
        </div>
      </div>
    </dialog>
  );
}
