import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { QuickReply } from '../../../../contract/bff-quick-replies.ts';
import { MAX_QUICK_REPLY_TEXT, MAX_SHORTCUT_LENGTH } from '../../../../contract/bff-quick-replies.ts';
import { Button, IconButton } from '@/components/ui/Button.tsx';
import { ErrorNote } from '@/components/ui/ErrorNote.tsx';
import { inputClass } from '@/components/ui/Input.tsx';
import { useLang, useWords } from '@/lib/i18n.ts';
import { refusalOf } from '@/lib/refusal.ts';
import { useDeleteQuickReply, useQuickReplies, useSaveQuickReply } from '../api/quick-replies.ts';
import { quickReplyWords } from '../quick-reply-words.ts';

type Draft = { id: string | null; shortcut: string; text: string };
type Problem = keyof (typeof quickReplyWords)['en']['problems'];

/** What is wrong with a draft before it is sent (the gateway checks again, and says what it refuses). */
function problemsOf(d: Draft): Partial<Record<'shortcut' | 'text', Problem>> {
  const shortcut = d.shortcut.trim();
  return {
    ...(!/^[^\s/]+$/.test(shortcut) || shortcut.length > MAX_SHORTCUT_LENGTH ? { shortcut: 'shortcut' as const } : {}),
    ...(d.text.trim() === '' ? { text: 'text' as const } : d.text.length > MAX_QUICK_REPLY_TEXT ? { text: 'textLong' as const } : {}),
  };
}

/**
 * The account's quick replies, in a modal dialog: every agent sees them; a manager (the gateway says who) adds,
 * changes and deletes them. Loaded when first opened from the composer's `/` list.
 */
export default function QuickReplyManager({ onClose }: { onClose(): void }) {
  const lang = useLang();
  const w = useWords(quickReplyWords);
  const list = useQuickReplies(true).data;
  const save = useSaveQuickReply();
  const remove = useDeleteQuickReply();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [shown, setShown] = useState<Partial<Record<'shortcut' | 'text', Problem>>>({});
  const [error, setError] = useState<string | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const ids = { title: useId(), hint: useId(), shortcut: useId(), text: useId() };
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
  }, []);
  const close = () => {
    dialog.current?.close();
    onClose();
  };
  const manage = list?.may_manage ?? false;
  const full = list ? list.replies.length >= list.max : false;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    // The dialog is the composer's child in React's tree: its submit must not reach the composer's form.
    e.stopPropagation();
    if (!draft) return;
    const problems = problemsOf(draft);
    setShown(problems);
    if (Object.keys(problems).length > 0) return;
    setError(null);
    try {
      await save.mutateAsync({ id: draft.id, input: { shortcut: draft.shortcut.trim(), text: draft.text } });
      setDraft(null);
    } catch (err) {
      const said = refusalOf(err, { shortcut: w.shortcut, text: w.text }, lang);
      setError([said.message, ...Object.values(said.fields)].join(' '));
    }
  };
  const del = async (reply: QuickReply) => {
    setError(null);
    try {
      await remove.mutateAsync(reply.id);
    } catch (err) {
      setError(`${w.notDeleted} ${refusalOf(err, {}, lang).message}`);
    }
  };

  return (
    <dialog
      ref={dialog}
      className="m-auto w-[min(30rem,calc(100vw-1rem))] rounded-lg border border-line bg-panel p-0 text-text shadow-md backdrop:bg-black/40"
      aria-labelledby={ids.title}
      onCancel={(e) => {
        e.preventDefault();
        if (draft) setDraft(null);
        else close();
      }}
    >
      <div className="flex items-center gap-2 border-b border-line px-3 py-2">
        <h2 id={ids.title} className="m-0 min-w-0 flex-1 truncate text-[15px] font-semibold">
          {w.title}
        </h2>
        {list && <span className="text-xs text-muted">{w.count(list.replies.length, list.max)}</span>}
        <IconButton aria-label={w.close} title={w.close} onClick={close}>
          ✕
        </IconButton>
      </div>
      <div className="grid max-h-[60vh] gap-2 overflow-y-auto p-3 text-sm">
        {error && (
          <ErrorNote onDismiss={() => setError(null)} dismissLabel={w.close}>
            {error}
          </ErrorNote>
        )}
        {!list && <p className="m-0 text-muted">{w.loading}</p>}
        {list && !manage && <p className="m-0 border-l-[3px] border-accent pl-2 text-xs">{w.readOnly}</p>}
        {list && list.replies.length === 0 && <p className="m-0 text-muted">{w.none}</p>}
        {list && list.replies.length > 0 && (
          <ul className="m-0 grid list-none gap-1 p-0" aria-label={w.list}>
            {list.replies.map((reply) => (
              <li key={reply.id} className="flex items-start gap-2 rounded-md border border-line px-2 py-1.5">
                <span className="min-w-0 flex-1">
                  <span className="block font-semibold">/{reply.shortcut}</span>
                  <span className="block break-words whitespace-pre-wrap text-muted">{reply.text}</span>
                </span>
                {manage && (
                  <>
                    <Button size="small" aria-label={w.editLabel(reply.shortcut)} onClick={() => (setDraft({ id: reply.id, shortcut: reply.shortcut, text: reply.text }), setShown({}))}>
                      {w.edit}
                    </Button>
                    <Button size="small" variant="danger" aria-label={w.deleteLabel(reply.shortcut)} disabled={remove.isPending} onClick={() => void del(reply)}>
                      {w.delete}
                    </Button>
                  </>
                )}
              </li>
            ))}
          </ul>
        )}
        {manage && draft && (
          <form className="grid gap-2 rounded-md border border-line p-2" aria-label={draft.id ? w.editLabel(draft.shortcut) : w.add} onSubmit={(e) => void submit(e)} noValidate>
            <label className="grid gap-1">
              <span className="font-semibold">{w.shortcut}</span>
              <input
                className={inputClass}
                value={draft.shortcut}
                autoFocus
                autoComplete="off"
                maxLength={MAX_SHORTCUT_LENGTH}
                aria-invalid={shown.shortcut ? true : undefined}
                aria-describedby={shown.shortcut ? `${ids.shortcut} ${ids.hint}` : ids.hint}
                onChange={(e) => setDraft({ ...draft, shortcut: e.target.value.replace(/^\//, '') })}
              />
              <span id={ids.hint} className="text-xs text-muted">
                {w.shortcutHint}
              </span>
              {shown.shortcut && (
                <span id={ids.shortcut} className="text-xs text-danger" role="alert">
                  {w.problems[shown.shortcut]}
                </span>
              )}
            </label>
            <label className="grid gap-1">
              <span className="font-semibold">{w.text}</span>
              <textarea
                className={`${inputClass} min-h-20 resize-y`}
                value={draft.text}
                maxLength={MAX_QUICK_REPLY_TEXT}
                aria-invalid={shown.text ? true : undefined}
                aria-describedby={shown.text ? ids.text : undefined}
                onChange={(e) => setDraft({ ...draft, text: e.target.value })}
              />
              {shown.text && (
                <span id={ids.text} className="text-xs text-danger" role="alert">
                  {w.problems[shown.text]}
                </span>
              )}
            </label>
            <div className="flex justify-end gap-2">
              <Button onClick={() => setDraft(null)}>{w.cancel}</Button>
              <Button type="submit" variant="primary" disabled={save.isPending}>
                {save.isPending ? w.saving : w.save}
              </Button>
            </div>
          </form>
        )}
      </div>
      {manage && !draft && (
        <div className="flex justify-end border-t border-line p-3">
          <Button variant="primary" disabled={full} onClick={() => (setDraft({ id: null, shortcut: '', text: '' }), setShown({}))}>
            {w.add}
          </Button>
        </div>
      )}
    </dialog>
  );
}
