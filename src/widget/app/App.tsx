import { lazy, Suspense, useEffect, useState } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { ChatScreen, prefetchChatScreen, preloadChatView } from '@/features/chat/index.ts';
import type { BffClient } from '@/lib/bff-client.ts';
import { browserLang, catalog, langOf } from '@/lib/i18n.ts';
import type { EmbedContext } from './embed.ts';
import { Providers } from './providers.tsx';
import './styles.css';

/** What the page became: the gateway's own start page, or a frame waiting for, or holding, its session. */
type Frame = { state: 'starting' } | { state: 'ready'; ctx: EmbedContext } | { state: 'refused' };

function Shell() {
  return (
    <main className="p-8 font-sans text-[#1f2933]">
      <h1 className="m-0 text-2xl font-bold">Messaging gateway</h1>
      <p className="my-4">
        The gateway is running. The REST reference is at{' '}
        <a className="text-[#1d4ed8] underline" href="/docs">
          /docs
        </a>
        .
      </p>
    </main>
  );
}

/**
 * The connect screen is an admin's, opened now and then: its code is a chunk of its own, loaded only by a
 * channels frame, so the chat frame (the one agents keep open) downloads no more than its own screen.
 */
const loadConnect = () => import('@/features/connect/index.ts');
const ConnectScreen = lazy(() => loadConnect().then((m) => ({ default: m.ConnectScreen })));

/** Starts fetching the code of the frame's screen while its session is exchanged, rather than once it is. */
export function preloadScreen(pathname: string) {
  if (pathname === '/embed/chats') void preloadChatView();
  else if (pathname === '/embed/channels') void loadConnect();
}

/** Asks for what the frame's screen reads first, once the session token is known. */
export function prefetchScreen(pathname: string, queryClient: QueryClient, client: BffClient) {
  if (pathname === '/embed/chats') prefetchChatScreen(queryClient, client);
}

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
    es: {
      connecting: 'Conectando…',
      refused: 'Este enlace ha caducado o ya se usó. Recargue la página para obtener uno nuevo.',
      loading: 'Cargando…',
    },
    pt: {
      connecting: 'Conectando…',
      refused: 'Este link expirou ou já foi usado. Recarregue a página para obter um novo.',
      loading: 'Carregando…',
    },
  },
);

const note = 'm-0 p-6 font-sans text-[#4f5b68]';

/**
 * The iframe app. A frame opened from an iframe link (`embed`) shows its screen once its session is ready:
 * the chat screen for a chats session, the channel-connect screen for a channels session.
 */
export function App({ embed, queryClient }: { embed: Promise<EmbedContext | null> | null; queryClient: QueryClient }) {
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
      <p className={note} role="status">
        {early.connecting}
      </p>
    );
  if (frame.state === 'refused')
    return (
      <p className={note} role="alert">
        {early.refused}
      </p>
    );
  const { ctx } = frame;
  return (
    <Providers ctx={ctx} queryClient={queryClient}>
      {ctx.session.kind === 'chats' ? (
        <ChatScreen />
      ) : (
        <Suspense
          fallback={
            <p className={note} role="status">
              {words[langOf(ctx.session.options.lang)].loading}
            </p>
          }
        >
          <ConnectScreen />
        </Suspense>
      )}
    </Providers>
  );
}
