import type { HostToFrameMessage } from '../../contract/bridge.ts';
import type { StreamEvent } from '../../contract/realtime.ts';
import type { SessionInfo } from '../../contract/session.ts';
import type { BffClient } from './bff-client.ts';
import type { HostBridge } from './host-bridge.ts';

/** What the screens build on: the session, its API client, the bridge to the host page and the event stream. */
export interface EmbedContext {
  session: SessionInfo;
  client: BffClient;
  bridge: HostBridge | null;
  /** Subscribe to the stream (live and caught-up events, each once). */
  onEvent(listener: (event: StreamEvent) => void): () => void;
  /** Messages of the host page; those that came before the first listener are handed to it. */
  onHostMessage(listener: (message: HostToFrameMessage) => void): () => void;
  /** The stream missed too much: what the screens show must be read again. */
  onResync(listener: () => void): () => void;
}
