import { useId, useState } from 'react';
import type { Transport } from '../../../../contract/channels.ts';
import { useLang } from '@/lib/i18n.ts';
import { LinkButton } from '@/components/ui/Button.tsx';
import { refusalOf } from '@/lib/refusal.ts';
import type { useTransports } from '../api/get-transports.ts';
import { transportName } from '../store/words.ts';
import { CredentialsForm } from './CredentialsForm.tsx';
import { formWords } from './form-words.ts';

interface Props {
  transports: ReturnType<typeof useTransports>;
  preselected: Transport | null;
  onCreate(transport: Transport, credentials: Record<string, string>): Promise<void>;
}

/** "Connect a channel": pick one of the transports this frame can connect, give its credentials. */
export function ConnectForm({ transports, preselected, onCreate }: Props) {
  const [picked, setPicked] = useState<Transport | null>(null);
  const id = useId();
  const lang = useLang();
  const w = formWords[lang];
  if (transports.isPending)
    return (
      <p className="m-0 text-muted" role="status">
        {w.loading}
      </p>
    );
  if (transports.isError)
    return (
      <p className="m-0 rounded-lg bg-danger-bg px-3 py-2.5 text-danger [overflow-wrap:anywhere] focus:outline-2 focus:outline-danger" role="alert">
        {w.failed} {refusalOf(transports.error, {}, lang).message}{' '}
        <LinkButton onClick={() => void transports.refetch()}>{w.retry}</LinkButton>
      </p>
    );

  const creatable = transports.data;
  const offered = (t: Transport | null) => (t && creatable.some((c) => c.transport === t) ? t : null);
  const transport = offered(picked) ?? offered(preselected);
  const chosen = creatable.find((c) => c.transport === transport);
  const unavailable = preselected && !offered(preselected) ? transportName(preselected, lang) : null;

  const picker = (
    <fieldset className="m-0 min-w-0 border-0 p-0">
      <legend className="mb-1.5 p-0 font-semibold">{w.picker}</legend>
      <div className="grid grid-cols-[repeat(auto-fill,minmax(150px,1fr))] gap-2">
        {creatable.map((t) => (
          <label key={t.transport} className="grid cursor-pointer grid-cols-[auto_1fr] content-center items-center gap-x-2 rounded-[10px] border border-line px-2.5 py-2 has-checked:border-accent has-checked:bg-selected has-focus-visible:outline-2 has-focus-visible:outline-accent [&_input]:row-span-2 [&_input]:m-0">
            <input
              type="radio"
              name="transport"
              value={t.transport}
              checked={t.transport === transport}
              onChange={() => setPicked(t.transport)}
              aria-describedby={`${id}-${t.transport}-how`}
            />
            <span className="font-semibold">{transportName(t.transport, lang)}</span>
            {/* Said as the option's description, not as part of its name. */}
            <span className="text-xs text-muted" id={`${id}-${t.transport}-how`} aria-hidden="true">
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
    <div className="grid gap-3.5">
      {unavailable && <p className="m-0 text-muted">{w.unavailable(unavailable)}</p>}
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
        <p className="m-0 text-muted">{w.choose}</p>
      )}
    </div>
  );
}
