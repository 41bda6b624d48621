import { useId, useState } from 'react';
import type { Transport } from '../../../../contract/channels.ts';
import { useLang } from '../../../lib/i18n.ts';
import type { Transports } from '../hooks/use-transports.ts';
import { transportName } from '../store/words.ts';
import { CredentialsForm } from './CredentialsForm.tsx';
import { formWords } from './form-words.ts';

interface Props {
  transports: Transports & { retry(): void };
  preselected: Transport | null;
  onCreate(transport: Transport, credentials: Record<string, string>): Promise<void>;
}

/** "Connect a channel": pick one of the transports this frame can connect, give its credentials. */
export function ConnectForm({ transports, preselected, onCreate }: Props) {
  const [picked, setPicked] = useState<Transport | null>(null);
  const id = useId();
  const lang = useLang();
  const w = formWords[lang];
  if (transports.phase === 'loading')
    return (
      <p className="gw-connect-note" role="status">
        {w.loading}
      </p>
    );
  if (transports.phase === 'failed')
    return (
      <p className="gw-connect-alert" role="alert">
        {w.failed} {transports.error}{' '}
        <button type="button" className="gw-connect-link-button" onClick={transports.retry}>
          {w.retry}
        </button>
      </p>
    );

  const creatable = transports.creatable;
  const offered = (t: Transport | null) => (t && creatable.some((c) => c.transport === t) ? t : null);
  const transport = offered(picked) ?? offered(preselected);
  const chosen = creatable.find((c) => c.transport === transport);
  const unavailable = preselected && !offered(preselected) ? transportName(preselected, lang) : null;

  const picker = (
    <fieldset className="gw-connect-picker">
      <legend className="gw-connect-field__label">{w.picker}</legend>
      <div className="gw-connect-picker__options">
        {creatable.map((t) => (
          <label key={t.transport} className="gw-connect-picker__option">
            <input
              type="radio"
              name="transport"
              value={t.transport}
              checked={t.transport === transport}
              onChange={() => setPicked(t.transport)}
              aria-describedby={`${id}-${t.transport}-how`}
            />
            <span className="gw-connect-picker__name">{transportName(t.transport, lang)}</span>
            {/* Said as the option's description, not as part of its name. */}
            <span className="gw-connect-picker__how" id={`${id}-${t.transport}-how`} aria-hidden="true">
              {w.howItConnects[t.capabilities.connect]}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );

  // The picker stays outside the credentials form, which starts afresh per transport: moving through the
  // radio buttons with the arrow keys must not lose the focus.
  return (
    <div className="gw-connect-stack">
      {unavailable && <p className="gw-connect-note">{w.unavailable(unavailable)}</p>}
      {picker}
      {chosen ? (
        <CredentialsForm
          key={chosen.transport}
          transport={chosen.transport}
          submitLabel={w.connect(transportName(chosen.transport, lang))}
          note={w.whatFollows[chosen.capabilities.connect]}
          onSubmit={(credentials) => onCreate(chosen.transport, credentials)}
        />
      ) : (
        <p className="gw-connect-note">{w.choose}</p>
      )}
    </div>
  );
}
