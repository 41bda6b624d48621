import { useId, useState } from 'react';
import type { ConnectFlow, Transport } from '../../../../contract/channels.ts';
import type { Transports } from '../hooks/use-transports.ts';
import { transportNames } from '../store/words.ts';
import { CredentialsForm } from './CredentialsForm.tsx';

const howItConnects: Record<ConnectFlow, string> = {
  qr: 'QR code',
  bot_token: 'Bot token',
  redirect_url: 'At the provider',
  code: 'Authorization code',
  fields: 'Account details',
  iframe: 'At VK',
};

const whatFollows: Partial<Record<ConnectFlow, string>> = {
  qr: 'A QR code appears next; scan it with the phone that has the account.',
  redirect_url: 'Next you continue at the provider’s page to authorize the number.',
  iframe: 'Next you continue at VK to authorize the community.',
};

interface Props {
  transports: Transports & { retry(): void };
  preselected: Transport | null;
  onCreate(transport: Transport, credentials: Record<string, string>): Promise<void>;
}

/** "Connect a channel": pick one of the transports this frame can connect, give its credentials. */
export function ConnectForm({ transports, preselected, onCreate }: Props) {
  const [picked, setPicked] = useState<Transport | null>(null);
  const id = useId();
  if (transports.phase === 'loading') return <p className="gw-connect-note" role="status">Loading the messengers…</p>;
  if (transports.phase === 'failed')
    return (
      <p className="gw-connect-alert" role="alert">
        Could not load the messengers: {transports.error}{' '}
        <button type="button" className="gw-connect-link-button" onClick={transports.retry}>
          Try again
        </button>
      </p>
    );

  const creatable = transports.creatable;
  const offered = (t: Transport | null) => (t && creatable.some((c) => c.transport === t) ? t : null);
  const transport = offered(picked) ?? offered(preselected);
  const chosen = creatable.find((c) => c.transport === transport);
  const unavailable = preselected && !offered(preselected) ? transportNames[preselected] : null;

  const picker = (
    <fieldset className="gw-connect-picker">
      <legend className="gw-connect-field__label">Messenger</legend>
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
            <span className="gw-connect-picker__name">{transportNames[t.transport]}</span>
            {/* Said as the option's description, not as part of its name. */}
            <span className="gw-connect-picker__how" id={`${id}-${t.transport}-how`} aria-hidden="true">
              {howItConnects[t.capabilities.connect]}
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
      {unavailable && <p className="gw-connect-note">{unavailable} channels cannot be connected from this screen.</p>}
      {picker}
      {chosen ? (
        <CredentialsForm
          key={chosen.transport}
          transport={chosen.transport}
          submitLabel={`Connect ${transportNames[chosen.transport]}`}
          note={whatFollows[chosen.capabilities.connect]}
          onSubmit={(credentials) => onCreate(chosen.transport, credentials)}
        />
      ) : (
        <p className="gw-connect-note">Choose the messenger of the account to connect.</p>
      )}
    </div>
  );
}
