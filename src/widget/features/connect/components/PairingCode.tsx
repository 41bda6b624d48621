import { useId, useState, type FormEvent } from 'react';
import { formatPairingCode, pairingPhone } from '../store/credentials.ts';
import { useLang } from '@/lib/i18n.ts';
import { refusalOf } from '@/lib/refusal.ts';
import { flowWords } from './flow-words.ts';
import { TextField } from './TextField.tsx';
import { buttonClass } from '@/components/ui/Button.tsx';

interface Props {
  pairing: { code: string; phone: string } | null;
  /** Throws the gateway's refusal. */
  onRequest(phone: string): Promise<void>;
  onBack(): void;
}

/** WhatsApp's alternative to scanning: a phone number in, an 8-character code out, shown large to type on the phone. */
export function PairingCode({ pairing, onRequest, onBack }: Props) {
  const [phone, setPhone] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [again, setAgain] = useState(false);
  const id = useId();
  const lang = useLang();
  const w = flowWords[lang];

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = pairingPhone(phone, lang);
    if ('error' in parsed) return setError(parsed.error);
    setBusy(true);
    setError(null);
    try {
      await onRequest(parsed.phone);
      setAgain(false);
    } catch (err) {
      const refusal = refusalOf(err, { pairing_phone: w.phoneForRefusal }, lang);
      setError(refusal.fields.pairing_phone ?? refusal.message);
    }
    setBusy(false);
  };

  if (pairing && !again) {
    const shown = formatPairingCode(pairing.code);
    return (
      <div className="grid w-full gap-3.5">
        <p className="m-0 text-[15px]">{w.enterCode(pairing.phone)}</p>
        <p className="m-0 rounded-[10px] bg-selected px-4 py-3.5 text-center font-mono text-[clamp(28px,9vw,44px)] leading-[1.1] font-bold tracking-[0.12em] select-all" aria-label={w.codeLabel(pairing.code.split('').join(' '))} data-code={pairing.code}>
          {shown}
        </p>
        <ol className="m-0 grid list-decimal gap-1 pl-5">
          {w.pairingSteps.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
        <div className="flex flex-wrap items-center gap-2">
          <button type="button" className={buttonClass()} onClick={() => setAgain(true)}>
            {w.anotherNumber}
          </button>
          <button type="button" className={buttonClass('quiet')} onClick={onBack}>
            {w.scanInstead}
          </button>
        </div>
      </div>
    );
  }

  return (
    <form className="grid w-full gap-3.5" onSubmit={submit} noValidate aria-busy={busy}>
      <TextField
        id={`${id}-phone`}
        label={w.phoneLabel}
        hint={w.phoneHint}
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        autoFocus
        value={phone}
        onChange={setPhone}
        error={error ?? undefined}
      />
      <div className="flex flex-wrap items-center gap-2">
        <button type="submit" className={buttonClass('primary')} disabled={busy}>
          {busy ? w.gettingCode : w.getCode}
        </button>
        <button type="button" className={buttonClass('quiet')} onClick={onBack}>
          {w.scanInstead}
        </button>
      </div>
    </form>
  );
}
