import type { HostToFrameMessage } from '../../../contract/bridge.ts';
import type { StreamEvent } from '../../../contract/realtime.ts';
import type { SessionInfo } from '../../../contract/session.ts';
import type { BffClient } from '../../lib/bff-client.ts';
import type { HostBridge } from '../../lib/host-bridge.ts';

/** What the chat screen needs of the frame it runs in (the app's embed context gives it). */
export interface ChatContext {
  session: SessionInfo;
  client: BffClient;
  bridge: HostBridge | null;
  onEvent(listener: (event: StreamEvent) => void): () => void;
  onHostMessage(listener: (message: HostToFrameMessage) => void): () => void;
  onResync(listener: () => void): () => void;
}
