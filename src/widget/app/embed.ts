import { bridgeProtocol, type HostToFrameMessage } from '../../contract/bridge.ts';
import type { StreamEvent } from '../../contract/realtime.ts';
import { createBffClient } from '@/lib/bff-client.ts';
import type { Connection, EmbedContext } from '@/lib/embed-context.tsx';
import { createHostBridge, resolveHostOrigin, type HostBridge } from '@/lib/host-bridge.ts';
import { connectRealtime } from '@/lib/socket.ts';

export type { EmbedContext };

const SAVED_SESSION = 'gw-frame-session';

/** Where the frame keeps its session across a reload: this tab's session storage (gone with the tab), if allowed. */
function sessionStore(win: Window) {
  const storage = (() => {
    try {
      return win.sessionStorage;
    } catch {
      return null;
    }
  })();
  return {
    read(): { token: string; expires_at: string } | null {
      try {
        const saved = JSON.parse(storage?.getItem(SAVED_SESSION) ?? 'null') as { token?: unknown; expires_at?: unknown } | null;
        return typeof saved?.token === 'string' && typeof saved.expires_at === 'string' && Date.parse(saved.expires_at) > Date.now() ? { token: saved.token, expires_at: saved.expires_at } : null;
      } catch {
        return null;
      }
    },
    write(saved: { token: string; expires_at: string }): void {
      try {
        storage?.setItem(SAVED_SESSION, JSON.stringify(saved));
      } catch {
        // Storage full or refused: a reload then needs a new link, as before.
      }
    },
    clear(): void {
      try {
        storage?.removeItem(SAVED_SESSION);
      } catch {
        // Nothing kept.
      }
    },
  };
}

/**
 * Starts a frame opened at /embed/<screen>?link=…: takes the link out of the address bar, trades it for a
 * session, finds the host page's origin, says `ready`, keeps the session renewed and the stream connected.
 */
export async function startEmbed(win: Window): Promise<EmbedContext | null> {
  const url = new URL(win.location.href);
  const link = url.searchParams.get('link');
  url.searchParams.delete('link');
  win.history.replaceState(null, '', url.pathname + url.search + url.hash);

  const eventListeners = new Set<(event: StreamEvent) => void>();
  const hostListeners = new Set<(message: HostToFrameMessage) => void>();
  const resyncListeners = new Set<() => void>();
  const connectionListeners = new Set<(state: Connection) => void>();
  let connection: Connection = 'online';
  const setConnection = (state: Connection) => {
    if (state === connection || connection === 'ended') return;
    connection = state;
    connectionListeners.forEach((l) => l(state));
  };
  // The host may say `open_chat` right after `ready`, before the screen has mounted and listens.
  let early: HostToFrameMessage[] = [];
  let bridge: HostBridge | null = null;
  const ancestorOrigins = win.location.ancestorOrigins as ArrayLike<string> | undefined;
  const store = sessionStore(win);
  const sessionLost = () => {
    store.clear();
    setConnection('ended');
    // Without a session the allowed origins are unknown; the parent is trusted only as the browser names it.
    const host = bridge ? null : resolveHostOrigin({ allowed: null, ancestorOrigins, referrer: win.document.referrer });
    if (bridge) bridge.post({ type: 'session_expired', payload: {} });
    else if (host) win.parent.postMessage({ protocol: bridgeProtocol, type: 'session_expired', payload: {} }, host);
  };
  const client = createBffClient({ onSessionLost: sessionLost });
  // A reload of the frame has no link any more (it was taken out of the address and is good once): the session it
  // held is taken up again, kept for this tab only, and renewed as before.
  const saved = link ? null : store.read();
  if (!link && !saved) return null;
  try {
    if (link) await client.exchange(link);
    else client.resume(saved!);
  } catch {
    sessionLost();
    return null;
  }
  const session = await client.session().catch(() => null);
  if (!session) {
    store.clear();
    sessionLost();
    return null;
  }
  const keep = () => {
    const current = client.saved();
    if (current) store.write(current);
  };
  keep();

  const hostOrigin = resolveHostOrigin({ allowed: session.allowed_origins, ancestorOrigins, referrer: win.document.referrer });
  if (hostOrigin && win.parent !== win) {
    bridge = createHostBridge({
      window: win as unknown as Parameters<typeof createHostBridge>[0]['window'],
      hostOrigin,
      onMessage: (message) => {
        if (hostListeners.size === 0) early = [...early.slice(-9), message];
        hostListeners.forEach((l) => l(message));
      },
    });
    bridge.post({ type: 'ready', payload: { kind: session.kind, user_id: session.user?.id ?? null } });
  }

  const realtime = connectRealtime({
    token: client.token,
    onEvent: (event) => eventListeners.forEach((l) => l(event)),
    onResync: () => resyncListeners.forEach((l) => l()),
    onSessionEnded: sessionLost,
  });
  realtime.socket.on('connect', () => setConnection('online'));
  realtime.socket.on('disconnect', () => setConnection('offline'));
  realtime.socket.io.on('reconnect_error', () => setConnection('offline'));

  const renew = () => {
    win.setTimeout(() => {
      client.renew().then(() => (keep(), renew()), () => {});
    }, client.renewalDelay());
  };
  renew();

  return {
    session,
    client,
    bridge,
    onEvent: (l) => (eventListeners.add(l), () => eventListeners.delete(l)),
    onHostMessage: (l) => {
      hostListeners.add(l);
      const queued = early;
      early = [];
      queued.forEach(l);
      return () => hostListeners.delete(l);
    },
    onResync: (l) => (resyncListeners.add(l), () => resyncListeners.delete(l)),
    onConnection: (l) => (connectionListeners.add(l), () => connectionListeners.delete(l)),
    connection: () => connection,
  };
}
