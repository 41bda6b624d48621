import { useId, useRef, useState, type FormEvent } from 'react';
import { useLang } from '@/lib/i18n.ts';
import { refusalOf } from '@/lib/refusal.ts';
import { flowWords } from './flow-words.ts';
import { TextField } from './TextField.tsx';
import { buttonClass } from '@/components/ui/Button.tsx';

/** The account's two-factor password; a wrong one is said plainly and the admin tries again. */
export function TwoFactorForm({ onSubmit }: { onSubmit(password: string): Promise<void> }) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  const lang = useLang();
  const w = flowWords[lang];

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!password) {
      setError(w.enterPassword);
      input.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await onSubmit(password);
    } catch (err) {
      const refusal = refusalOf(err, {}, lang);
      setError(refusal.code === 'TWO_FACTOR_CODE_INVALID' ? w.wrongPassword : refusal.message);
      setPassword('');
      setTimeout(() => input.current?.focus());
    }
    setBusy(false);
  };

  return (
    <form className="grid w-full gap-3.5" onSubmit={submit} noValidate aria-busy={busy}>
      <p className="m-0 text-[15px]">{w.passwordLead}</p>
      <TextField
        id={`${id}-password`}
        label={w.passwordLabel}
        type="password"
        autoComplete="off"
        autoFocus
        inputRef={input}
        value={password}
        onChange={setPassword}
      />
      {error && (
        <p className="m-0 rounded-lg bg-danger-bg px-3 py-2.5 text-danger [overflow-wrap:anywhere] focus:outline-2 focus:outline-danger" role="alert">
          {error}
        </p>
      )}
      <div className="flex flex-wrap items-center gap-2">
        <button type="submit" className={buttonClass('primary')} disabled={busy}>
          {busy ? w.checking : w.confirmPassword}
        </button>
      </div>
    </form>
  );
}
