import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useWords } from '../../../lib/i18n.ts';
import { templateWords } from '../template-words.ts';
import { words } from '../words.ts';
import './composer.css';
import { PaperclipIcon, TemplateIcon } from './icons.tsx';

/** A message being edited: the composer holds its text until it is saved or the edit is cancelled. */
export interface Editing {
  messageId: string;
  text: string;
}

interface Props {
  /** Resolves to null when the gateway took the message, or to what to tell the agent. */
  onSend(text: string): Promise<string | null>;
  onEdit(messageId: string, text: string): Promise<string | null>;
  editing: Editing | null;
  onCancelEdit(): void;
  /** The longest text the chat's messenger accepts, when known. */
  limit: number | null;
  disabledReason?: string | null;
  /** Offered where the chat's channel sends business-API templates: opens the template form. */
  onOpenTemplates?: (() => void) | null;
  /** What the agent should know before writing (the text is still sent: the gateway decides). */
  notice?: string | null;
  /** Sends a file the agent picks; resolves like onSend. */
  onSendFile?: ((file: File) => Promise<string | null>) | null;
}

/** Grows the box with its text up to the CSS max-height, then it scrolls. */
function fit(box: HTMLTextAreaElement | null) {
  if (!box) return;
  box.style.height = 'auto';
  box.style.height = `${box.scrollHeight}px`;
}

/** The text box: Enter sends, Shift+Enter starts a new line; a refused send is said plainly and the text kept. */
export function Composer({ onSend, onEdit, editing, onCancelEdit, limit, disabledReason, onOpenTemplates, notice, onSendFile }: Props) {
  const all = useWords(words);
  const w = all.composer;
  const t = useWords(templateWords).templates;
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  const picker = useRef<HTMLInputElement>(null);
  const errorId = useId();

  // Editing puts the message's text in the box; leaving the edit empties it.
  const editingId = editing?.messageId ?? null;
  const editingText = editing?.text ?? '';
  useEffect(() => {
    setText(editingId ? editingText : '');
    setError(null);
    if (editingId) box.current?.focus();
  }, [editingId, editingText]);
  useEffect(() => fit(box.current), [text]);

  const tooLong = limit !== null && text.length > limit;
  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    const body = text.trim();
    if (!body || disabledReason || tooLong) return;
    setError(null);
    if (editingId) {
      const refused = await onEdit(editingId, body);
      if (refused) setError(refused);
      else onCancelEdit();
      return;
    }
    setText('');
    const refused = await onSend(body);
    if (refused) {
      setError(refused);
      // Give the text back, unless the agent has started another one meanwhile.
      setText((now) => (now === '' ? body : now));
    }
    box.current?.focus();
  };

  const attach = async (file: File | undefined) => {
    if (picker.current) picker.current.value = '';
    if (!file || !onSendFile) return;
    setError(null);
    const refused = await onSendFile(file);
    if (refused) setError(refused);
    box.current?.focus();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void submit();
    } else if (e.key === 'Escape' && editingId) {
      onCancelEdit();
    }
  };

  return (
    <form className="gw-composer" onSubmit={(e) => void submit(e)}>
      {error && (
        <div className="gw-composer__error gw-error" role="alert" id={errorId}>
          <span>
            <strong>{editingId ? w.notSaved : w.notSent}</strong> {error}
          </span>
          <button type="button" className="gw-link-button" aria-label={all.dismissError} onClick={() => setError(null)}>
            ✕
          </button>
        </div>
      )}
      {editingId && (
        <div className="gw-composer__editing">
          <span>{w.editing}</span>
          <button type="button" className="gw-link-button" onClick={onCancelEdit}>
            {w.cancel}
          </button>
        </div>
      )}
      {disabledReason && <p className="gw-composer__note">{disabledReason}</p>}
      {notice && !editingId && !disabledReason && <p className="gw-composer__note gw-composer__notice">{notice}</p>}
      {tooLong && (
        <p className="gw-composer__note gw-error">
          {w.tooLong(text.length, limit)}
        </p>
      )}
      <div className="gw-composer__row">
        {onSendFile && !editingId && !disabledReason && (
          <>
            <button type="button" className="gw-button gw-composer__attach" aria-label={w.attach} title={w.attach} onClick={() => picker.current?.click()}>
              <PaperclipIcon />
            </button>
            <input ref={picker} type="file" hidden tabIndex={-1} onChange={(e) => void attach(e.target.files?.[0])} />
          </>
        )}
        {onOpenTemplates && !editingId && !disabledReason && (
          <button type="button" className="gw-button gw-composer__template" aria-label={t.openLabel} title={t.openLabel} onClick={onOpenTemplates}>
            <TemplateIcon />
            <span className="gw-composer__template-label">{t.open}</span>
          </button>
        )}
        <textarea
          ref={box}
          className="gw-input gw-composer__text"
          aria-label={editingId ? w.editedLabel : w.label}
          aria-describedby={error ? errorId : undefined}
          aria-invalid={tooLong || undefined}
          placeholder={w.placeholder}
          rows={1}
          value={text}
          disabled={!!disabledReason}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
        />
        <button type="submit" className="gw-button gw-button--primary" disabled={!text.trim() || !!disabledReason || tooLong}>
          {editingId ? w.save : w.send}
        </button>
      </div>
    </form>
  );
}
