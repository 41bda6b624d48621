import { lazy, Suspense, useEffect, useState } from 'react';
import { ChatScreen } from '../features/chat/index.ts';
import { FrameOptionsProvider } from '../lib/frame-options.tsx';
import { browserLang, catalog, langOf } from '../lib/i18n.ts';
import type { EmbedContext } from './embed.ts';
import './theme.css';

/** What the page became: the gateway's own start page, or a frame waiting for, or holding, its session. */
type Frame = { state: 'starting' } | { state: 'ready'; ctx: EmbedContext } | { state: 'refused' };

function Shell() {
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', padding: '2rem', color: '#1f2933' }}>
      <h1 style={{ fontSize: '1.5rem', margin: 0 }}>Messaging gateway</h1>
      <p>
        The gateway is running. The REST reference is at <a href="/docs">/docs</a>.
      </p>
    </main>
  );
}

/**
 * The connect screen is an admin's, opened now and then: its code is a chunk of its own, loaded only by a
 * channels frame, so the chat frame (the one agents keep open) downloads no more than its own screen.
 */
const ConnectScreen = lazy(() => import('../features/connect/index.ts').then((m) => ({ default: m.ConnectScreen })));

/** What the frame says before its session tells the language: in the browser's. */
const words = catalog(
  {
    connecting: 'Connecting…',
    refused: 'This link has expired or was already used. Reload the page to get a new one.',
    loading: 'Loading…',
  },
  {
    ru: {
      connecting: 'Подключение…',
      refused: 'Ссылка устарела или уже была использована. Обновите страницу, чтобы получить новую.',
      loading: 'Загрузка…',
    },
  },
);

const note = { fontFamily: 'system-ui, sans-serif', padding: '1.5rem', color: '#52606d', margin: 0 } as const;

/**
 * The iframe app. A frame opened from an iframe link (`embed`) shows its screen once its session is ready:
 * the chat screen for a chats session, the channel-connect screen for a channels session.
 */
export function App({ embed }: { embed: Promise<EmbedContext | null> | null }) {
  const [frame, setFrame] = useState<Frame>({ state: 'starting' });
  useEffect(() => {
    if (!embed) return;
    let live = true;
    embed.then(
      (ctx) => live && setFrame(ctx ? { state: 'ready', ctx } : { state: 'refused' }),
      () => live && setFrame({ state: 'refused' }),
    );
    return () => {
      live = false;
    };
  }, [embed]);

  if (!embed) return <Shell />;
  const early = words[browserLang()];
  if (frame.state === 'starting')
    return (
      <p style={note} role="status">
        {early.connecting}
      </p>
    );
  if (frame.state === 'refused')
    return (
      <p style={note} role="alert">
        {early.refused}
      </p>
    );
  const { ctx } = frame;
  return (
    <FrameOptionsProvider ctx={ctx}>
      {ctx.session.kind === 'chats' ? (
        <ChatScreen ctx={ctx} />
      ) : (
        <Suspense
          fallback={
            <p style={note} role="status">
              {words[langOf(ctx.session.options.lang)].loading}
            </p>
          }
        >
          <ConnectScreen ctx={ctx} />
        </Suspense>
      )}
    </FrameOptionsProvider>
  );
}
