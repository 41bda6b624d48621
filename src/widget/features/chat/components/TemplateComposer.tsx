import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { TemplateRef } from '../../../../contract/messages.ts';
import type { Template } from '../../../../contract/templates.ts';
import type { BffClient } from '../../../lib/bff-client.ts';
import { useWords } from '../../../lib/i18n.ts';
import { useTemplates } from '../hooks/use-templates.ts';
import { templateBody, templateButtons, templatePreview, valueCount, valuesComplete } from '../store/template-form.ts';
import { templateWords } from '../template-words.ts';
import './templates.css';

interface Props {
  client: BffClient;
  channelId: string;
  /** Resolves to null when the gateway took the message, or to what to tell the agent. */
  onSend(template: TemplateRef, preview: string): Promise<string | null>;
  onClose(): void;
}

function TemplateList({ templates, onChoose }: { templates: Template[]; onChoose(t: Template): void }) {
  const w = useWords(templateWords).templates;
  if (templates.length === 0) return <p className="gw-templates__note">{w.none}</p>;
  return (
    <ul className="gw-templates__list" aria-label={w.list}>
      {templates.map((t) => (
        <li key={t.id}>
          <button type="button" className="gw-templates__item" onClick={() => onChoose(t)}>
            <span className="gw-templates__item-name">{t.name}</span>
            <span className="gw-templates__meta">
              {t.language} · {w.categories[t.category]}
            </span>
            <span className="gw-templates__body">{templateBody(t)}</span>
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
    <form className="gw-templates__form" onSubmit={(e) => void submit(e)} aria-describedby={previewId}>
      <div className="gw-templates__scroll">
        <p className="gw-templates__chosen">
          <span className="gw-templates__item-name">{template.name}</span>
          <span className="gw-templates__meta">
            {template.language} · {w.categories[template.category]}
          </span>
        </p>
        {values.length > 0 && (
          <div className="gw-templates__values">
            {values.map((value, i) => (
              <label className="gw-templates__value" key={i}>
                <span>{w.value(i + 1)}</span>
                <input
                  ref={i === 0 ? first : undefined}
                  className="gw-input"
                  value={value}
                  maxLength={1024}
                  onChange={(e) => setValues((now) => now.map((v, j) => (j === i ? e.target.value : v)))}
                />
              </label>
            ))}
          </div>
        )}
        <figure className="gw-templates__preview" id={previewId}>
          <figcaption>{w.preview}</figcaption>
          <p className="gw-templates__preview-text">{preview}</p>
          {buttons.length > 0 && (
            <div className="gw-keyboard__row" role="group" aria-label={w.buttons}>
              {buttons.map((text, i) => (
                <span className="gw-keyboard__button" key={i}>
                  {text}
                </span>
              ))}
            </div>
          )}
        </figure>
      </div>
      {error && (
        <div className="gw-composer__error gw-error gw-templates__error" role="alert">
          <span>
            <strong>{w.notSent}</strong> {error}
          </span>
        </div>
      )}
      <div className="gw-templates__actions">
        {!complete && <span className="gw-composer__note">{w.fillAll}</span>}
        <button ref={sendButton} type="submit" className="gw-button gw-button--primary" disabled={!complete || busy}>
          {w.send}
        </button>
      </div>
    </form>
  );
}

/**
 * Sending a business-API template in the open chat, in place of the text box: the channel's approved templates,
 * then the chosen one's values with the message as the customer will read it. Escape or ✕ goes back to the text.
 */
export function TemplateComposer({ client, channelId, onSend, onClose }: Props) {
  const w = useWords(templateWords).templates;
  const { state, retry } = useTemplates(client, channelId);
  const [chosen, setChosen] = useState<Template | null>(null);
  const section = useRef<HTMLElement>(null);
  // In the list, the first template has the focus (the close button when there is none), so that the keyboard
  // starts in the form and Escape leaves it; the chosen template's form focuses its first value itself.
  const ready = state.phase === 'ready';
  useEffect(() => {
    if (!ready || chosen) return;
    section.current?.querySelector<HTMLButtonElement>('.gw-templates__item, .gw-templates__close')?.focus();
  }, [ready, chosen]);
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') onClose();
  };

  return (
    <section ref={section} className="gw-templates" aria-label={w.title} onKeyDown={onKeyDown}>
      <header className="gw-templates__header">
        {chosen ? (
          <button type="button" className="gw-link-button" onClick={() => setChosen(null)}>
            {w.back}
          </button>
        ) : (
          <h3 className="gw-templates__title">{w.title}</h3>
        )}
        <button type="button" className="gw-icon-button gw-templates__close" aria-label={w.close} title={w.close} onClick={onClose}>
          ✕
        </button>
      </header>
      {state.phase === 'loading' && <p className="gw-templates__note">{w.loading}</p>}
      {state.phase === 'failed' && (
        <p className="gw-templates__note gw-error" role="alert">
          {w.loadFailed} {state.error}{' '}
          <button type="button" className="gw-link-button" onClick={retry}>
            {w.tryAgain}
          </button>
        </p>
      )}
      {state.phase === 'ready' &&
        (chosen ? <TemplateForm key={chosen.id} template={chosen} onSend={onSend} onSent={onClose} /> : <TemplateList templates={state.templates} onChoose={setChosen} />)}
    </section>
  );
}
