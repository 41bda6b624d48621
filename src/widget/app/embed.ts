import { createStore } from 'zustand/vanilla';
import { bridgeProtocol } from '../../contract/bridge-protocol.ts';
import type { HostToFrameMessage } from '../../contract/bridge.ts';
import type { ChatTyping, StreamEvent } from '../../contract/realtime.ts';
import type { BffClient } from '@/lib/bff-client.ts';
import { gatedBridge } from '@/lib/bridge-events.ts';
import type { Connection, ConnectionState, EmbedContext } from '@/lib/embed-context.tsx';
import { createHostBridge, resolveHostOrigin, type HostBridge } from '@/lib/host-bridge.ts';
import { connectRealtime } from '@/lib/socket.ts';
import type { SessionStart } from './session-start.ts';

export type { EmbedContext };

/**
 * Starts a frame opened at /embed/<screen>?link=…: trades the link for a session (or takes up the one it was
 * traded for before), finds the host page's origin, says `ready`, keeps the session renewed and the stream connected.
 */
export async function startEmbed(
  win: Window,
  start: SessionStart | null,
  options: {
    /** The session token is known (traded or taken up): what the screen reads first can be asked for now. */
    onToken?(client: BffClient): void;
  } = {},
): Promise<EmbedContext | null> {
  const eventListeners = new Set<(event: StreamEvent) => void>();
  const hostListeners = new Set<(message: HostToFrameMessage) => void>();
  const resyncListeners = new Set<() => void>();
  const connection = createStore<ConnectionState>(() => ({ state: 'online' }));
  // An ended session stays ended: only a new link brings the frame back.
  const setConnection = (state: Connection) => {
    if (connection.getState().state !== 'ended') connection.setState({ state });
  };
  // The host may say `open_chat` right after `ready`, before the screen has mounted and listens.
  let early: HostToFrameMessage[] = [];
  let bridge: HostBridge | null = null;
  const ancestorOrigins = win.location.ancestorOrigins as ArrayLike<string> | undefined;
  // Told once, though the session's details and the first reads made alongside them may each find it gone.
  let lost = false;
  const sessionLost = () => {
    if (lost) return;
    lost = true;
    start?.store.clear();
    setConnection('ended');
    // Without a session the allowed origins are unknown; the parent is trusted only as the browser names it.
    const host = bridge ? null : resolveHostOrigin({ allowed: null, ancestorOrigins, referrer: win.document.referrer });
    if (bridge) bridge.post({ type: 'session_expired', payload: {} });
    else if (host) win.parent.postMessage({ protocol: bridgeProtocol, type: 'session_expired', payload: {} }, host);
  };
  if (!start) return null;
  const { client, store } = start;
  start.onLost(sessionLost);
  // A session taken up after a reload holds its token already: the screen's first reads go alongside its details.
  const tokenHeld = client.token() !== null;
  if (tokenHeld) options.onToken?.(client);
  const session = await start.details;
  if (!session) {
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
    // What the frame posts follows the link's `use_events`.
    bridge = gatedBridge(
      createHostBridge({
        window: win as unknown as Parameters<typeof createHostBridge>[0]['window'],
        hostOrigin,
        onMessage: (message) => {
          if (hostListeners.size === 0) early = [...early.slice(-9), message];
          hostListeners.forEach((l) => l(message));
        },
      }),
      session.use_events,
    );
    bridge.post({ type: 'ready', payload: { kind: session.kind, user_id: session.user?.id ?? null } });
  }
  // A traded link's answer brought the token and the details at once: `ready` goes first, then the first reads.
  if (!tokenHeld) options.onToken?.(client);

  const realtime = connectRealtime({
    token: client.token,
    onEvent: (event) => eventListeners.forEach((l) => l(event)),
    onResync: () => resyncListeners.forEach((l) => l()),
    onSessionEnded: sessionLost,
  });
  // A customer typing: pushed as it happens, never caught up (it lasts seconds).
  const typingListeners = new Set<(typing: ChatTyping) => void>();
  realtime.socket.on('typing', (typing) => typingListeners.forEach((l) => l(typing)));
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
      // What came before the screen listened goes to every listener its first render sets up (the screen's options
      // as well as its chat opening, whichever subscribes first), then is dropped: a view mounted later must not
      // hear an old `open_chat` again.
      early.forEach(l);
      if (early.length > 0) setTimeout(() => (early = []), 0);
      return () => hostListeners.delete(l);
    },
    onResync: (l) => (resyncListeners.add(l), () => resyncListeners.delete(l)),
    onTyping: (l) => (typingListeners.add(l), () => typingListeners.delete(l)),
    connection,
  };
}
