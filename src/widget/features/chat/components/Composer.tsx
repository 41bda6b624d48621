import { useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';

interface Props {
  /** Resolves to null when the gateway took the message, or to what to tell the agent. */
  onSend(text: string): Promise<string | null>;
  disabledReason?: string | null;
}

/** The text box: Enter sends, Shift+Enter starts a new line; a refused send is said plainly and the text kept. */
export function Composer({ onSend, disabledReason }: Props) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  const errorId = useId();

  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    const body = text.trim();
    if (!body || disabledReason) return;
    setText('');
    setError(null);
    const refused = await onSend(body);
    if (refused) {
      setError(refused);
      // Give the text back, unless the agent has started another one meanwhile.
      setText((now) => (now === '' ? body : now));
    }
    box.current?.focus();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void submit();
    }
  };

  return (
    <form className="gw-composer" onSubmit={(e) => void submit(e)}>
      {error && (
        <div className="gw-composer__error gw-error" role="alert" id={errorId}>
          <span>
            <strong>Not sent.</strong> {error}
          </span>
          <button type="button" className="gw-link-button" aria-label="Dismiss the error" onClick={() => setError(null)}>
            ✕
          </button>
        </div>
      )}
      {disabledReason && <p className="gw-composer__note">{disabledReason}</p>}
      <div className="gw-composer__row">
        <textarea
          ref={box}
          className="gw-input gw-composer__text"
          aria-label="Message"
          aria-describedby={error ? errorId : undefined}
          placeholder="Write a message…"
          rows={1}
          value={text}
          disabled={!!disabledReason}
          onChange={(e) => {
            setText(e.target.value);
            // Grows with the text up to the CSS max-height, then scrolls.
            e.target.style.height = 'auto';
            e.target.style.height = `${e.target.scrollHeight}px`;
          }}
          onKeyDown={onKeyDown}
        />
        <button type="submit" className="gw-button gw-button--primary" disabled={!text.trim() || !!disabledReason}>
          Send
        </button>
      </div>
    </form>
  );
}
