import type { SessionInfo } from '../../contract/session.ts';
import { createBffClient, type BffClient } from '@/lib/bff-client.ts';
import { frameKey, savedSessions, tabStorage } from '@/lib/saved-session.ts';

/** A frame's session as its first request left it: traded for its link, or taken up after a reload. */
export interface SessionStart {
  link: string;
  client: BffClient;
  store: ReturnType<typeof savedSessions>;
  /** The session's details, or null when the link was refused or the saved session is gone. */
  details: Promise<SessionInfo | null>;
  /** Who is told when a later request finds the session gone (set once the frame knows its host). */
  onLost(listener: () => void): void;
}

/**
 * Sends the frame's first request: trades the link for a session, or (reloaded) takes up the one it was traded
 * for before and asks for its details. Null for a page without a link.
 */
export function beginSession(win: Window): SessionStart | null {
  // The link stays in the frame's address (pages send no referrer): it is good for one session only, and a reload
  // of the frame needs it to be served the frame page and to find the session it was traded for.
  const link = new URL(win.location.href).searchParams.get('link');
  if (!link) return null;
  let lost = () => {};
  const client = createBffClient({ onSessionLost: () => lost() });
  const store = savedSessions(tabStorage(win), frameKey(link));
  // A link is good once. Reloaded, the frame or the host page (the same link again) takes up the session that link
  // was traded for, kept for this tab only, and renews it as before; a new link is traded anew. A traded link's
  // answer carries the session's details; a session taken up asks for them.
  const saved = store.read();
  if (saved) client.resume(saved);
  const details = saved ? client.session().catch(() => null) : client.exchange(link).then((answer) => answer.session, () => null);
  return { link, client, store, details, onLost: (listener) => (lost = listener) };
}

/**
 * Begun as this module is evaluated, the first of the frame's code to run: the request is on its way while the
 * rest of the frame's code (React, the screens) is still being evaluated, rather than after it.
 */
export const sessionStart = globalThis.window?.location.pathname.startsWith('/embed/') ? beginSession(window) : null;
