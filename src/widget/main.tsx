import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { startEmbed } from './app/embed.ts';

const root = document.getElementById('root');
if (!root) throw new Error('missing #root');

// Frames opened from an iframe link connect their session, host bridge and stream at once, before React renders.
const embed = window.location.pathname.startsWith('/embed/') ? startEmbed(window) : null;

createRoot(root).render(
  <StrictMode>
    <App embed={embed} />
  </StrictMode>,
);
