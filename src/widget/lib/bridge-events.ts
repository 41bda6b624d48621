import type { FrameToHostMessage } from '../../contract/bridge.ts';
import type { SessionEvents } from '../../contract/iframe-links.ts';
import type { HostBridge, OutgoingMessage } from './host-bridge.ts';

/**
 * Which of the link's `use_events` a bridge message belongs to: `messages` for what happens in the chats,
 * `deals` for what the agent asks the CRM to create; the frame's own life (ready, session ended, a channel
 * connected) is always said.
 */
const kindOf: Record<FrameToHostMessage['type'], keyof SessionEvents | null> = {
  chat_opened: 'messages',
  unanswered_count_changed: 'messages',
  unread_count_changed: 'messages',
  contact_to_create: 'deals',
  deal_to_create: 'deals',
  deal_opened: 'deals',
  ready: null,
  session_expired: null,
  channel_connected: null,
};

/** Whether the frame posts a message of this type; a session that names no `use_events` posts every one. */
export function postsToHost(useEvents: Partial<SessionEvents> | null | undefined, type: FrameToHostMessage['type']): boolean {
  const kind = kindOf[type];
  return kind === null || useEvents?.[kind] !== false;
}

/** The bridge, silent about the kinds of messages the link turned off. */
export function gatedBridge(bridge: HostBridge, useEvents: Partial<SessionEvents> | null | undefined): HostBridge {
  return {
    post(message: OutgoingMessage) {
      if (postsToHost(useEvents, message.type)) bridge.post(message);
    },
    close: () => bridge.close(),
  };
}
