// First: the frame's session request leaves while the rest of the frame's code is evaluated.
import { sessionStart } from './app/session-start.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, prefetchScreen, preloadScreen } from './app/App.tsx';
import { startEmbed } from './app/embed.ts';
import { createQueryClient } from './lib/query-client.ts';

const root = document.getElementById('root');
if (!root) throw new Error('missing #root');

// Frames opened from an iframe link connect their session, host bridge and stream at once, before React renders.
// The screen's code, and what it reads first, are fetched alongside: none of them waits for another.
const { pathname } = window.location;
const queryClient = createQueryClient();
const embed = pathname.startsWith('/embed/') ? startEmbed(window, sessionStart, { onToken: (client) => prefetchScreen(pathname, queryClient, client) }) : null;
preloadScreen(pathname);

createRoot(root).render(
  <StrictMode>
    <App embed={embed} queryClient={queryClient} />
  </StrictMode>,
);
