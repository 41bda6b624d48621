import type { HookRegistrar } from '../core/channels/hook-refresh.ts';
import type { AuthorizationReturn } from '../core/channels/authorization-return.ts';
import type { ChannelRecord, ConnectOutcome } from '../core/channels/ports.ts';
import type { SessionDriver } from '../core/sessions/ports.ts';
import type { TemplatePlatform } from '../core/templates/ports.ts';
import type { MessageDeps, MessagingDriver, MessengerAppHook, MessengerFileOpener, MessengerHook } from '../core/messages/ports.ts';

/** One transport on its real platform: how its channels connect and let go, send, and hear back. */
export interface LiveTransport {
  connect(channelId: string, credentials: Record<string, unknown>, previous?: Pick<ChannelRecord, 'messengerId' | 'credentials'>): Promise<ConnectOutcome>;
  disconnect(channel: Pick<ChannelRecord, 'id' | 'credentials'>): Promise<void>;
  messaging: MessagingDriver;
  /**
   * What reads the platform's callbacks (to each channel's address, `update`, or to the app's one address, `app`,
   * served at `/hooks/<name>`), and opens the customers' files behind the gateway's links (if it gives any).
   */
  hooks(messages: MessageDeps): { update?: MessengerHook; files?: MessengerFileOpener; app?: { name: string; hook: MessengerAppHook } };
  /** Registers the channels' hooks again where they were registered under other settings (none for a session's transport). */
  registrar?: HookRegistrar;
  /** Where the platform's authorization page sends a channel's owner back to (`/hooks/<transport>/authorized`), if it does. */
  authorization?: AuthorizationReturn;
  /** For a transport whose channels hold a long-lived connection: what opens it in the process holding its session. */
  session?: SessionDriver;
  /** For a transport whose platform moderates business-API templates: submitting, editing and deleting them there. */
  templates?: TemplatePlatform;
}
