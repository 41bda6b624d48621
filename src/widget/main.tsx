import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { startEmbed } from './app/embed.ts';

const root = document.getElementById('root');
if (!root) throw new Error('missing #root');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

// Frames opened from an iframe link connect their session, host bridge and stream at once.
if (window.location.pathname.startsWith('/embed/')) void startEmbed(window);
