import { useId, useState, type FormEvent } from 'react';
import { formatPairingCode, pairingPhone } from '../store/credentials.ts';
import { refusalOf } from '../../../lib/refusal.ts';
import { TextField } from './TextField.tsx';

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

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = pairingPhone(phone);
    if ('error' in parsed) return setError(parsed.error);
    setBusy(true);
    setError(null);
    try {
      await onRequest(parsed.phone);
      setAgain(false);
    } catch (err) {
      setError(refusalOf(err, { pairing_phone: 'The phone number' }).fields.pairing_phone ?? refusalOf(err).message);
    }
    setBusy(false);
  };

  if (pairing && !again) {
    const shown = formatPairingCode(pairing.code);
    return (
      <div className="gw-connect-pairing">
        <p className="gw-connect-step__lead">Enter this code on the phone with the number +{pairing.phone}:</p>
        <p className="gw-connect-pairing__code" aria-label={`Pairing code: ${pairing.code.split('').join(' ')}`} data-code={pairing.code}>
          {shown}
        </p>
        <ol className="gw-connect-steps">
          <li>Open WhatsApp on the phone and go to Linked devices.</li>
          <li>Choose Link a device, then Link with phone number instead.</li>
          <li>Type the code above. This screen updates by itself.</li>
        </ol>
        <div className="gw-connect-actions">
          <button type="button" className="gw-connect-button" onClick={() => setAgain(true)}>
            Use another number
          </button>
          <button type="button" className="gw-connect-button gw-connect-button--quiet" onClick={onBack}>
            Scan a QR code instead
          </button>
        </div>
      </div>
    );
  }

  return (
    <form className="gw-connect-form" onSubmit={submit} noValidate aria-busy={busy}>
      <TextField
        id={`${id}-phone`}
        label="Phone number of the WhatsApp account"
        hint="With the country code, e.g. +7 900 111 22 33."
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        autoFocus
        value={phone}
        onChange={setPhone}
        error={error ?? undefined}
      />
      <div className="gw-connect-actions">
        <button type="submit" className="gw-connect-button gw-connect-button--primary" disabled={busy}>
          {busy ? 'Getting the code…' : 'Get a code'}
        </button>
        <button type="button" className="gw-connect-button gw-connect-button--quiet" onClick={onBack}>
          Scan a QR code instead
        </button>
      </div>
    </form>
  );
}
