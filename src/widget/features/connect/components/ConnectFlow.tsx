import type { ApiTransport } from '../../../../contract/channel-api.ts';
import type { BffChannel } from '../../../../contract/session.ts';
import { useLang } from '../../../lib/i18n.ts';
import type { Connect } from '../hooks/use-connect.ts';
import type { Panel } from '../store/panel.ts';
import type { Step } from '../store/step.ts';
import { channelIdentity, describeStatus } from '../store/words.ts';
import { flowWords } from './flow-words.ts';
import { ScanStep } from './ScanStep.tsx';
import { TwoFactorForm } from './TwoFactorForm.tsx';

interface Props {
  channel: BffChannel | undefined;
  panel: Extract<Panel, { kind: 'follow' }>;
  step: Step;
  connect: Connect;
}

/** One channel on its way: what it waits for now, and what the admin can do about it. */
export function ConnectFlow({ channel, panel, step, connect }: Props) {
  const { channelId, transport } = panel;
  const lang = useLang();
  const w = flowWords[lang];
  const identity = channel ? channelIdentity(channel) : '';
  const another = (
    <button type="button" className="gw-connect-button gw-connect-button--quiet" onClick={() => connect.startNew()}>
      {w.another}
    </button>
  );

  const body = (() => {
    switch (step.kind) {
      case 'loading':
        return (
          <p className="gw-connect-note" role="status">
            {w.loading}
          </p>
        );
      case 'deleted':
        return <p className="gw-connect-step__lead">{w.deleted}</p>;
      case 'connected':
        return (
          <div className="gw-connect-done" role="status">
            <span className="gw-connect-done__mark" aria-hidden="true">✓</span>
            <p className="gw-connect-done__text">
              {w.connected}
              {identity ? <span className="gw-connect-done__who">{identity}</span> : null}
            </p>
          </div>
        );
      case 'scan':
        return <ScanStep transport={transport} qr={step.qr} pairingCode={step.pairingCode} pairing={panel.pairing} onPairing={(phone) => connect.pairing(channelId, phone)} />;
      case 'new-code':
        return (
          <>
            <p className="gw-connect-step__lead">{w.notScanned}</p>
            <button type="button" className="gw-connect-button gw-connect-button--primary" onClick={() => connect.reinit(channelId, transport)}>
              {w.newCode}
            </button>
          </>
        );
      case 'password':
        return <TwoFactorForm onSubmit={(password) => connect.twoFactor(channelId, transport as ApiTransport, password)} />;
      case 'syncing':
        return (
          <p className="gw-connect-step__lead gw-connect-busy" role="status">
            {w.syncing}
          </p>
        );
      case 'authorize':
        return (
          <>
            <p className="gw-connect-step__lead">
              {transport === 'vk' ? w.authorizeVk : w.authorizeProvider} {w.updatesWhenDone}
            </p>
            <a className="gw-connect-button gw-connect-button--primary" href={step.url} target="_blank" rel="noopener noreferrer">
              {transport === 'vk' ? w.continueVk : w.continueProvider}
              <span className="gw-connect-visually-hidden"> {w.newTab}</span>
            </a>
          </>
        );
      case 'waiting':
        return (
          <p className="gw-connect-step__lead gw-connect-busy" role="status">
            {w.waiting}
          </p>
        );
      case 'off':
        return (
          <>
            <p className="gw-connect-step__lead">{describeStatus(channel ?? { status: 'disabled', reason: null }, lang).text}.</p>
            {channel && (
              <button type="button" className="gw-connect-button gw-connect-button--primary" onClick={() => connect.reconnect(channel)}>
                {w.reconnect}
              </button>
            )}
          </>
        );
    }
  })();

  return (
    <div className={`gw-connect-flow gw-connect-flow--${step.kind}`} data-step={step.kind}>
      {identity && step.kind !== 'connected' && <p className="gw-connect-flow__who">{identity}</p>}
      {body}
      {panel.error && (
        <p className="gw-connect-alert" role="alert">
          {panel.error}
        </p>
      )}
      <div className="gw-connect-actions gw-connect-flow__leave">{another}</div>
    </div>
  );
}
