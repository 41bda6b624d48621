import { useEffect, useRef } from 'react';
import type { ConnectContext } from '../context.ts';
import { useChannels } from '../hooks/use-channels.ts';
import { useConnect } from '../hooks/use-connect.ts';
import { useFrameOptions } from '../../../lib/frame-options.tsx';
import { useWords } from '../../../lib/i18n.ts';
import { useTransports } from '../hooks/use-transports.ts';
import { connectStep } from '../store/step.ts';
import { transportName } from '../store/words.ts';
import { ChannelList } from './ChannelList.tsx';
import { ConnectFlow } from './ConnectFlow.tsx';
import { ConnectForm } from './ConnectForm.tsx';
import { CredentialsForm } from './CredentialsForm.tsx';
import { formWords } from './form-words.ts';
import './connect.css';
import './connect-flow.css';

/**
 * The admin's channel-connect screen: the account's channels on one side, connecting one on the other (in a
 * narrow frame, one above the other). A frame opened for one channel starts at its reconnect.
 */
export function ConnectScreen({ ctx }: { ctx: ConnectContext }) {
  const channels = useChannels(ctx);
  const transports = useTransports(ctx);
  const connect = useConnect(ctx, channels);
  const { theme, lang } = useFrameOptions();
  const { panel, followed } = connect;
  const w = useWords(formWords);

  // Whenever the panel turns to another task, the focus (and a narrow frame's scroll) follows to its title.
  const title = useRef<HTMLHeadingElement>(null);
  const panelKey = panel.kind === 'new' ? 'new' : `${panel.kind}:${panel.channelId}`;
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    title.current?.focus();
  }, [panelKey]);

  const heading =
    panel.kind === 'new'
      ? w.connectTitle
      : panel.kind === 'reconnect'
        ? w.reconnectTitle(transportName(panel.transport, lang))
        : transportName(panel.transport, lang);

  return (
    <div className="gw-theme gw-connect" data-theme={theme} lang={lang}>
      <ChannelList
        state={channels.state}
        currentId={panel.kind === 'new' ? null : panel.channelId}
        onOpen={connect.follow}
        onReconnect={connect.reconnect}
        onDelete={connect.remove}
        onRetry={channels.retry}
      />
      <section className="gw-connect__panel" aria-labelledby="gw-connect-panel-title">
        <h2 className="gw-connect__title" id="gw-connect-panel-title" ref={title} tabIndex={-1}>
          {heading}
        </h2>
        {connect.notice === 'missing' && <p className="gw-connect-alert">{w.missingChannel}</p>}
        {panel.kind === 'new' && <ConnectForm transports={transports} preselected={panel.transport} onCreate={connect.create} />}
        {panel.kind === 'reconnect' && (
          <CredentialsForm
            transport={panel.transport}
            submitLabel={w.reconnect}
            note={w.reenter}
            onSubmit={(credentials) => connect.reinitWith(panel.channelId, panel.transport, credentials)}
            onCancel={() => connect.startNew()}
          />
        )}
        {panel.kind === 'follow' && (
          <ConnectFlow channel={followed} panel={panel} step={connectStep(followed, panel, channels.state.gone.has(panel.channelId))} connect={connect} />
        )}
      </section>
    </div>
  );
}
