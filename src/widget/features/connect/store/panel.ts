import { create } from 'zustand';
import type { Transport } from '../../../../contract/channels.ts';

/** The QR a connecting channel shows: being read, live (a PNG data URL, maybe with its content), or gone. */
export type QrView = { kind: 'loading' } | { kind: 'live'; code: string; content?: string | undefined } | { kind: 'gone' };

/**
 * What the connect side of the screen shows: the form for a new channel, the credentials form to reconnect a
 * bot (its token is not kept where the frame can read it), or one channel being followed through its steps.
 */
export type Panel =
  | { kind: 'new'; transport: Transport | null }
  | { kind: 'reconnect'; channelId: string; transport: Transport }
  /** `url`: wapi's provider page, from the create answer (the list carries it too). */
  | { kind: 'follow'; channelId: string; transport: Transport; url: string | null };

/** The connect screen's own state (the channels, their codes and steps live in the query cache). */
interface ConnectUi {
  panel: Panel;
  /** Why the panel starts where it does, when it is not where the link asked: the screen says it in words. */
  notice: 'missing' | null;
  /** Channels deleted while the screen is open (here or elsewhere): a followed one says so rather than loading. */
  deleted: ReadonlySet<string>;
  startNew(transport?: Transport | null): void;
  reconnect(channelId: string, transport: Transport): void;
  follow(channelId: string, transport: Transport, url?: string | null): void;
  missing(): void;
  gone(channelId: string): void;
}

export const useConnectUi = create<ConnectUi>()((set) => ({
  panel: { kind: 'new', transport: null },
  notice: null,
  deleted: new Set(),
  startNew: (transport = null) => set({ panel: { kind: 'new', transport }, notice: null }),
  reconnect: (channelId, transport) => set({ panel: { kind: 'reconnect', channelId, transport }, notice: null }),
  follow: (channelId, transport, url = null) =>
    set((s) => ({
      notice: null,
      panel: s.panel.kind === 'follow' && s.panel.channelId === channelId ? { ...s.panel, url: url ?? s.panel.url } : { kind: 'follow', channelId, transport, url },
    })),
  missing: () => set({ notice: 'missing' }),
  gone: (channelId) => set((s) => ({ deleted: new Set(s.deleted).add(channelId) })),
}));
