import { useId, useRef, useState, type FormEvent } from 'react';
import type { Transport } from '../../../../contract/channels.ts';
import { credentialFields, credentialsOf, missingFields } from '../store/credentials.ts';
import { useLang } from '@/lib/i18n.ts';
import { refusalOf } from '@/lib/refusal.ts';
import { formWords } from './form-words.ts';
import { TextField } from './TextField.tsx';
import { buttonClass } from '@/components/ui/Button.tsx';

interface Props {
  transport: Transport;
  submitLabel: string;
  /** Throws the gateway's refusal, which the form shows by its inputs. */
  onSubmit(credentials: Record<string, string>): Promise<void>;
  onCancel?: (() => void) | undefined;
  note?: string | undefined;
}

/** The credentials a transport needs (none for QR transports), sent once; a refusal is said where it applies. */
export function CredentialsForm({ transport, submitLabel, onSubmit, onCancel, note }: Props) {
  const lang = useLang();
  const w = formWords[lang];
  const fields = credentialFields(transport, lang);
  const [values, setValues] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();
  const form = useRef<HTMLFormElement>(null);

  // Where a refusal sends the focus: the first input it names, or the message.
  const focusFirst = (names: string[]) => {
    const name = fields.find((f) => names.includes(f.name))?.name;
    const target = name ? form.current?.querySelector<HTMLElement>(`#${CSS.escape(`${id}-${name}`)}`) : form.current?.querySelector<HTMLElement>('[role="alert"]');
    target?.focus();
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const missing = missingFields(transport, values, lang);
    if (Object.keys(missing).length > 0) {
      setErrors(missing);
      setError(null);
      focusFirst(Object.keys(missing));
      return;
    }
    setBusy(true);
    setErrors({});
    setError(null);
    try {
      await onSubmit(credentialsOf(transport, values));
    } catch (err) {
      const refusal = refusalOf(err, Object.fromEntries(fields.map((f) => [f.name, f.label])), lang);
      setErrors(refusal.fields);
      setError(refusal.message);
      setBusy(false);
      // After React has drawn the messages the focus can go to them.
      setTimeout(() => focusFirst(Object.keys(refusal.fields)));
      return;
    }
    setBusy(false);
  };

  return (
    <form ref={form} className="grid w-full gap-3.5" onSubmit={submit} noValidate aria-busy={busy}>
      {note && <p className="m-0 text-muted">{note}</p>}
      {fields.map((f) => (
        <TextField
          key={`${transport}:${f.name}`}
          id={`${id}-${f.name}`}
          label={f.label}
          hint={f.hint}
          // Tokens are pasted, not typed: shown, so the admin can see what went in (and what a refusal is about).
          type="text"
          autoComplete="off"
          value={values[f.name] ?? ''}
          onChange={(v) => setValues((now) => ({ ...now, [f.name]: v }))}
          error={errors[f.name]}
        />
      ))}
      {error && (
        <p className="m-0 rounded-lg bg-danger-bg px-3 py-2.5 text-danger [overflow-wrap:anywhere] focus:outline-2 focus:outline-danger" role="alert" tabIndex={-1}>
          {error}
        </p>
      )}
      <div className="flex flex-wrap items-center gap-2">
        <button type="submit" className={buttonClass('primary')} disabled={busy}>
          {busy ? w.connecting : submitLabel}
        </button>
        {onCancel && (
          <button type="button" className={buttonClass()} onClick={onCancel}>
            {w.cancel}
          </button>
        )}
      </div>
    </form>
  );
}
