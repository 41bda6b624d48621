import { createContext, useContext, type ReactNode } from 'react';
import { useStore, type StoreApi } from 'zustand';
import type { HostToFrameMessage } from '../../contract/bridge.ts';
import type { ChatTyping, StreamEvent } from '../../contract/realtime.ts';
import type { SessionInfo } from '../../contract/session.ts';
import type { BffClient } from './bff-client.ts';
import type { HostBridge } from './host-bridge.ts';

/**
 * Whether the frame's stream is connected: the screen says so while it is not, and catches up by itself after;
 * `ended`: the session is over (expired, revoked) and only a new link from the host page brings the frame back.
 */
export type Connection = 'online' | 'offline' | 'ended';
export interface ConnectionState {
  state: Connection;
}

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
  /** The stream's connection, now and as it changes. */
  connection: StoreApi<ConnectionState>;
  /** A customer typing in a chat the frame may see (absent in frames without the realtime stream). */
  onTyping?(listener: (typing: ChatTyping) => void): () => void;
}

const Context = createContext<EmbedContext | null>(null);

/** Gives every screen and hook below it the frame's session, client, bridge and stream. */
export function EmbedProvider({ ctx, children }: { ctx: EmbedContext; children: ReactNode }) {
  return <Context.Provider value={ctx}>{children}</Context.Provider>;
}

export function useEmbed(): EmbedContext {
  const ctx = useContext(Context);
  if (!ctx) throw new Error('useEmbed outside of an EmbedProvider');
  return ctx;
}

/** The stream's connection, redrawn as it changes. */
export function useConnection(): Connection {
  return useStore(useEmbed().connection, (s) => s.state);
}
