import type { ApiTransport } from '../../../../contract/channel-api.ts';
import { useLang } from '@/lib/i18n.ts';
import type { Connect } from '../hooks/use-connect.ts';
import type { Panel } from '../store/panel.ts';
import type { Step } from '../store/step.ts';
import { channelIdentity, describeStatus } from '../store/words.ts';
import { flowWords } from './flow-words.ts';
import { ScanStep } from './ScanStep.tsx';
import { TwoFactorForm } from './TwoFactorForm.tsx';
import { buttonClass } from '@/components/ui/Button.tsx';

interface Props {
  panel: Extract<Panel, { kind: 'follow' }>;
  step: Step;
  connect: Connect;
}

/** One channel on its way: what it waits for now, and what the admin can do about it. */
export function ConnectFlow({ panel, step, connect }: Props) {
  const channel = connect.followed;
  const { channelId, transport } = panel;
  const lang = useLang();
  const w = flowWords[lang];
  const identity = channel ? channelIdentity(channel) : '';
  const another = (
    <button type="button" className={buttonClass('quiet')} onClick={() => connect.startNew()}>
      {w.another}
    </button>
  );

  const body = (() => {
    switch (step.kind) {
      case 'loading':
        return (
          <p className="m-0 text-muted" role="status">
            {w.loading}
          </p>
        );
      case 'deleted':
        return <p className="m-0 text-[15px]">{w.deleted}</p>;
      case 'connected':
        return (
          <div className="flex items-center gap-3.5 rounded-[10px] bg-ok-bg p-4 text-ok" role="status">
            <span className="grid size-11 flex-none place-items-center rounded-full bg-ok text-2xl font-bold text-ok-bg" aria-hidden="true">✓</span>
            <p className="m-0 text-lg font-bold">
              {w.connected}
              {identity ? <span className="block text-sm font-normal text-text [overflow-wrap:anywhere]">{identity}</span> : null}
            </p>
          </div>
        );
      case 'scan':
        return <ScanStep transport={transport} qr={step.qr} pairingCode={step.pairingCode} pairing={connect.pairingCode} onPairing={(phone) => connect.pairing(channelId, phone)} />;
      case 'new-code':
        return (
          <>
            <p className="m-0 text-[15px]">{w.notScanned}</p>
            <button type="button" className={`${buttonClass('primary')} justify-self-start`} onClick={() => connect.reinit(channelId, transport)}>
              {w.newCode}
            </button>
          </>
        );
      case 'password':
        return <TwoFactorForm onSubmit={(password) => connect.twoFactor(channelId, transport as ApiTransport, password)} />;
      case 'syncing':
        return (
          <p className="m-0 text-[15px] before:mr-2 before:inline-block before:size-3.5 before:animate-spin before:rounded-full before:border-2 before:border-line before:border-t-accent before:align-[-2px] before:content-[''] motion-reduce:before:animate-none" role="status">
            {w.syncing}
          </p>
        );
      case 'authorize':
        return (
          <>
            <p className="m-0 text-[15px]">
              {transport === 'vk' ? w.authorizeVk : w.authorizeProvider} {w.updatesWhenDone}
            </p>
            <a className={`${buttonClass('primary')} justify-self-start`} href={step.url} target="_blank" rel="noopener noreferrer">
              {transport === 'vk' ? w.continueVk : w.continueProvider}
              <span className="sr-only"> {w.newTab}</span>
            </a>
          </>
        );
      case 'waiting':
        return (
          <p className="m-0 text-[15px] before:mr-2 before:inline-block before:size-3.5 before:animate-spin before:rounded-full before:border-2 before:border-line before:border-t-accent before:align-[-2px] before:content-[''] motion-reduce:before:animate-none" role="status">
            {w.waiting}
          </p>
        );
      case 'off':
        return (
          <>
            <p className="m-0 text-[15px]">{describeStatus(channel ?? { status: 'disabled', reason: null }, lang).text}.</p>
            {channel && (
              <button type="button" className={`${buttonClass('primary')} justify-self-start`} onClick={() => connect.reconnect(channel)}>
                {w.reconnect}
              </button>
            )}
          </>
        );
    }
  })();

  return (
    <div className="grid gap-3.5" data-step={step.kind}>
      {identity && step.kind !== 'connected' && <p className="-mt-1.5 mb-0 text-muted">{identity}</p>}
      {body}
      {connect.error && (
        <p className="m-0 rounded-lg bg-danger-bg px-3 py-2.5 text-danger [overflow-wrap:anywhere] focus:outline-2 focus:outline-danger" role="alert">
          {connect.error}
        </p>
      )}
      <div className="flex w-full flex-wrap items-center gap-2 border-t border-line pt-2.5">{another}</div>
    </div>
  );
}
