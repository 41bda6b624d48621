import { useEffect, useRef } from 'react';
import { ConnectionBanner } from '@/components/ui/ConnectionBanner.tsx';
import { useFrameOptions } from '@/lib/frame-options.tsx';
import { useWords } from '@/lib/i18n.ts';
import { useTransports } from '../api/get-transports.ts';
import { useConnect } from '../hooks/use-connect.ts';
import { useConnectStream } from '../hooks/use-connect-stream.ts';
import { useConnectUi } from '../store/panel.ts';
import { transportName } from '../store/words.ts';
import { ChannelList } from './ChannelList.tsx';
import { ConnectFlow } from './ConnectFlow.tsx';
import { ConnectForm } from './ConnectForm.tsx';
import { CredentialsForm } from './CredentialsForm.tsx';
import { formWords } from './form-words.ts';

/**
 * The admin's channel-connect screen: the account's channels on one side, connecting one on the other (in a
 * narrow frame, one above the other). A frame opened for one channel starts at its reconnect.
 */
export function ConnectScreen() {
  useConnectStream();
  const transports = useTransports();
  const connect = useConnect();
  const notice = useConnectUi((s) => s.notice);
  const { theme, lang } = useFrameOptions();
  const { panel, step } = connect;
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
    <main
      className="gw-theme gw-connect grid min-h-full content-start gap-4 p-4 leading-[1.45] min-[760px]:grid-cols-[minmax(280px,2fr)_minmax(0,3fr)] min-[760px]:items-start min-[760px]:gap-6 min-[760px]:p-6 min-[1100px]:grid-cols-[minmax(320px,420px)_minmax(0,640px)] min-[1100px]:justify-center"
      data-theme={theme}
      lang={lang}
    >
      <h1 className="sr-only">{w.screenTitle}</h1>
      <ConnectionBanner />
      <ChannelList
        channels={connect.channels}
        currentId={panel.kind === 'new' ? null : panel.channelId}
        onOpen={connect.follow}
        onReconnect={connect.reconnect}
        onDelete={connect.remove}
      />
      <section className="min-w-0 rounded-xl border border-line bg-panel p-4" aria-labelledby="gw-connect-panel-title">
        <h2 className="mt-0 mb-3 text-[17px] leading-[1.3] font-bold focus:outline-none" id="gw-connect-panel-title" ref={title} tabIndex={-1}>
          {heading}
        </h2>
        {notice === 'missing' && <p className="m-0 rounded-lg bg-danger-bg px-3 py-2.5 text-danger">{w.missingChannel}</p>}
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
        {panel.kind === 'follow' && step && <ConnectFlow panel={panel} step={step} connect={connect} />}
      </section>
    </main>
  );
}
