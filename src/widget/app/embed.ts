import { bridgeProtocol, type HostToFrameMessage } from '../../contract/bridge.ts';
import type { StreamEvent } from '../../contract/realtime.ts';
import { createBffClient } from '../lib/bff-client.ts';
import { createHostBridge, resolveHostOrigin, type HostBridge } from '../lib/host-bridge.ts';
import { connectRealtime } from '../lib/socket.ts';
import { unansweredCounts } from '../lib/unanswered-counts.ts';
import type { EmbedContext } from '../lib/embed-context.ts';

export type { EmbedContext };

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
  // The host may say `open_chat` right after `ready`, before the screen has mounted and listens.
  let early: HostToFrameMessage[] = [];
  let bridge: HostBridge | null = null;
  const ancestorOrigins = win.location.ancestorOrigins as ArrayLike<string> | undefined;
  const sessionLost = () => {
    // Without a session the allowed origins are unknown; the parent is trusted only as the browser names it.
    const host = bridge ? null : resolveHostOrigin({ allowed: null, ancestorOrigins, referrer: win.document.referrer });
    if (bridge) bridge.post({ type: 'session_expired', payload: {} });
    else if (host) win.parent.postMessage({ protocol: bridgeProtocol, type: 'session_expired', payload: {} }, host);
  };
  const client = createBffClient({ onSessionLost: sessionLost });
  if (!link) return null;
  try {
    await client.exchange(link);
  } catch {
    sessionLost();
    return null;
  }
  const session = await client.session();

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

  const unanswered = unansweredCounts();
  connectRealtime({
    token: client.token,
    onEvent: (event) => {
      eventListeners.forEach((l) => l(event));
      if (event.name === 'chat.unanswered_update') {
        if (unanswered.take(event)) bridge?.post({ type: 'unanswered_count_changed', payload: { total: unanswered.total() } });
      }
      if (event.name === 'channel.status_update' && session.kind === 'channels' && event.payload.status === 'active') {
        const channelId = event.payload.channel_id;
        client.channels().then(
          (channels) => {
            const channel = channels.find((c) => c.channel_id === channelId);
            if (channel) bridge?.post({ type: 'channel_connected', payload: { channel_id: channelId, transport: channel.transport } });
          },
          () => {},
        );
      }
    },
    onResync: () => resyncListeners.forEach((l) => l()),
    onSessionEnded: sessionLost,
  });

  const renew = () => {
    win.setTimeout(() => {
      client.renew().then(renew, () => {});
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
  };
}
