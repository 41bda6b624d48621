import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { TemplateRef } from '../../../../contract/messages.ts';
import type { Template } from '../../../../contract/templates.ts';
import { Button, IconButton, LinkButton } from '@/components/ui/Button.tsx';
import { ErrorNote } from '@/components/ui/ErrorNote.tsx';
import { inputClass } from '@/components/ui/Input.tsx';
import { useLang, useWords } from '@/lib/i18n.ts';
import { refusalOf } from '@/lib/refusal.ts';
import { useTemplates } from '../api/get-templates.ts';
import { templateBody, templateButtons, templatePreview, valueCount, valuesComplete } from '../store/template-form.ts';
import { templateWords } from '../template-words.ts';
import { KeyboardButton, KeyboardRow } from './MessageKeyboard.tsx';

interface Props {
  channelId: string;
  /** Resolves to null when the gateway took the message, or to what to tell the agent. */
  onSend(template: TemplateRef, preview: string): Promise<string | null>;
  onClose(): void;
}

function TemplateList({ templates, onChoose }: { templates: Template[]; onChoose(t: Template): void }) {
  const w = useWords(templateWords).templates;
  if (templates.length === 0) return <p className="m-0 p-3 text-[13px] text-muted">{w.none}</p>;
  return (
    <ul className="overflow-y-auto" aria-label={w.list}>
      {templates.map((t) => (
        <li key={t.id}>
          <button type="button" data-template className="grid w-full cursor-pointer grid-cols-[1fr_auto] gap-x-2 gap-y-0.5 border-b border-line px-3 py-2 text-left hover:bg-bg" onClick={() => onChoose(t)}>
            <span className="font-semibold">{t.name}</span>
            <span className="text-xs text-muted">
              {t.language} · {w.categories[t.category]}
            </span>
            <span className="col-span-full line-clamp-2 text-[13px] text-muted">{templateBody(t)}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}

/** One template's values, what the customer will read, and the send. */
function TemplateForm({ template, onSend, onSent }: { template: Template; onSend: Props['onSend']; onSent(): void }) {
  const w = useWords(templateWords).templates;
  const [values, setValues] = useState<string[]>(() => Array.from({ length: valueCount(template) }, () => ''));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const first = useRef<HTMLInputElement>(null);
  const sendButton = useRef<HTMLButtonElement>(null);
  const previewId = useId();
  useEffect(() => (first.current ?? sendButton.current)?.focus(), []);

  const complete = valuesComplete(template, values);
  const preview = templatePreview(template, values);
  const buttons = templateButtons(template);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!complete || busy) return;
    setBusy(true);
    setError(null);
    const refused = await onSend({ id: template.id, values: values.map((v) => v.trim()) }, templatePreview(template, values.map((v) => v.trim())));
    setBusy(false);
    if (refused) setError(refused);
    else onSent();
  };

  return (
    <form className="flex min-h-0 flex-col" onSubmit={(e) => void submit(e)} aria-describedby={previewId}>
      <div className="flex min-h-0 flex-col gap-2 overflow-y-auto px-3 py-2">
        <p className="m-0 flex items-baseline gap-2">
          <span className="font-semibold">{template.name}</span>
          <span className="text-xs text-muted">
            {template.language} · {w.categories[template.category]}
          </span>
        </p>
        {values.length > 0 && (
          <div className="grid grid-cols-[repeat(auto-fill,minmax(180px,1fr))] gap-x-2.5 gap-y-1.5">
            {values.map((value, i) => (
              <label className="flex flex-col gap-0.5 text-xs text-muted" key={i}>
                <span>{w.value(i + 1)}</span>
                <input
                  ref={i === 0 ? first : undefined}
                  className={`${inputClass} text-sm text-text`}
                  value={value}
                  maxLength={1024}
                  onChange={(e) => setValues((now) => now.map((v, j) => (j === i ? e.target.value : v)))}
                />
              </label>
            ))}
          </div>
        )}
        <figure className="m-0 rounded-[10px] bg-out px-2.5 py-2" id={previewId}>
          <figcaption className="text-[11px] text-muted">{w.preview}</figcaption>
          <p className="mt-0.5 whitespace-pre-wrap [overflow-wrap:anywhere]">{preview}</p>
          {buttons.length > 0 && (
            <KeyboardRow className="mt-1.5" label={w.buttons}>
              {buttons.map((text, i) => (
                <KeyboardButton key={i}>{text}</KeyboardButton>
              ))}
            </KeyboardRow>
          )}
        </figure>
      </div>
      {error && (
        <ErrorNote className="mx-3 mb-2">
          <strong>{w.notSent}</strong> {error}
        </ErrorNote>
      )}
      <div className="flex items-center justify-end gap-2.5 border-t border-line px-3 pt-2 pb-3">
        {!complete && <span className="text-xs text-muted">{w.fillAll}</span>}
        <Button ref={sendButton} type="submit" variant="primary" disabled={!complete || busy}>
          {w.send}
        </Button>
      </div>
    </form>
  );
}

/**
 * Sending a business-API template in the open chat, in place of the text box: the channel's approved templates,
 * then the chosen one's values with the message as the customer will read it. Escape or ✕ goes back to the text.
 */
export function TemplateComposer({ channelId, onSend, onClose }: Props) {
  const lang = useLang();
  const w = useWords(templateWords).templates;
  const templates = useTemplates(channelId);
  const [chosen, setChosen] = useState<Template | null>(null);
  const section = useRef<HTMLElement>(null);
  // In the list, the first template has the focus (the close button when there is none), so that the keyboard
  // starts in the form and Escape leaves it; the chosen template's form focuses its first value itself.
  const ready = templates.isSuccess;
  useEffect(() => {
    if (!ready || chosen) return;
    section.current?.querySelector<HTMLButtonElement>('[data-template], [data-close]')?.focus();
  }, [ready, chosen]);
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') onClose();
  };

  return (
    <section ref={section} className="flex max-h-[60%] flex-col border-t border-line bg-panel" aria-label={w.title} onKeyDown={onKeyDown}>
      <header className="flex items-center justify-between border-b border-line px-3 py-2">
        {chosen ? (
          <LinkButton onClick={() => setChosen(null)}>{w.back}</LinkButton>
        ) : (
          <h3 className="m-0 text-sm font-semibold">{w.title}</h3>
        )}
        <IconButton data-close aria-label={w.close} title={w.close} onClick={onClose}>
          ✕
        </IconButton>
      </header>
      {templates.isPending && <p className="m-0 p-3 text-[13px] text-muted">{w.loading}</p>}
      {templates.isError && (
        <p className="m-0 p-3 text-[13px] text-danger" role="alert">
          {w.loadFailed} {refusalOf(templates.error, {}, lang).message}{' '}
          <LinkButton onClick={() => void templates.refetch()}>{w.tryAgain}</LinkButton>
        </p>
      )}
      {templates.isSuccess &&
        (chosen ? <TemplateForm key={chosen.id} template={chosen} onSend={onSend} onSent={onClose} /> : <TemplateList templates={templates.data} onChoose={setChosen} />)}
    </section>
  );
}
