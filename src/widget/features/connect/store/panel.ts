import type { Transport } from '../../../../contract/channels.ts';
import type { StreamEvent } from '../../../../contract/realtime.ts';

/** The QR a connecting channel shows: being read, live (a PNG data URL), or gone (a new one needs a reinit). */
export type QrView = { kind: 'loading' } | { kind: 'live'; code: string } | { kind: 'gone' };

/**
 * What the connect side of the screen shows: the form for a new channel, the credentials form to reconnect a
 * bot (its token is not kept where the frame can read it), or one channel being followed through its steps.
 * `qrVersion` counts the codes pushed by the stream, so a read of the QR begun earlier never shows an older one.
 */
export type Panel =
  | { kind: 'new'; transport: Transport | null }
  | { kind: 'reconnect'; channelId: string; transport: Transport; error: string | null }
  | {
      kind: 'follow';
      channelId: string;
      transport: Transport;
      qr: QrView;
      qrVersion: number;
      /** wapi: the provider's page, from the create answer (the list carries it too). */
      url: string | null;
      pairing: { code: string; phone: string } | null;
      /** A reinit is on its way. */
      restarting: boolean;
      error: string | null;
    };

export type PanelAction =
  | { type: 'new'; transport: Transport | null }
  | { type: 'reconnect'; channelId: string; transport: Transport }
  | { type: 'follow'; channelId: string; transport: Transport; url?: string | null }
  | { type: 'qrRead'; channelId: string; version: number; code: string | null }
  | { type: 'pairing'; channelId: string; code: string; phone: string }
  | { type: 'restarting'; channelId: string }
  | { type: 'restarted'; channelId: string }
  | { type: 'failed'; channelId: string; error: string }
  | { type: 'event'; event: StreamEvent };

export const initialPanel = (transport: Transport | null): Panel => ({ kind: 'new', transport });

const following = (panel: Panel, channelId: string): panel is Extract<Panel, { kind: 'follow' }> =>
  panel.kind === 'follow' && panel.channelId === channelId;

export function panelReducer(panel: Panel, action: PanelAction): Panel {
  switch (action.type) {
    case 'new':
      return { kind: 'new', transport: action.transport };
    case 'reconnect':
      return { kind: 'reconnect', channelId: action.channelId, transport: action.transport, error: null };
    case 'follow':
      if (following(panel, action.channelId)) return { ...panel, url: action.url ?? panel.url };
      return {
        kind: 'follow',
        channelId: action.channelId,
        transport: action.transport,
        qr: { kind: 'loading' },
        qrVersion: 0,
        url: action.url ?? null,
        pairing: null,
        restarting: false,
        error: null,
      };
    case 'qrRead':
      if (!following(panel, action.channelId) || panel.qrVersion !== action.version) return panel;
      return { ...panel, qr: action.code ? { kind: 'live', code: action.code } : { kind: 'gone' } };
    case 'pairing':
      return following(panel, action.channelId) ? { ...panel, pairing: { code: action.code, phone: action.phone } } : panel;
    case 'restarting':
      // The old code and pairing code die with the reinit; the next code comes from the stream or a read.
      if (!following(panel, action.channelId)) return panel;
      return { ...panel, restarting: true, error: null, pairing: null, qr: { kind: 'loading' }, qrVersion: panel.qrVersion + 1 };
    case 'restarted':
      return following(panel, action.channelId) ? { ...panel, restarting: false } : panel;
    case 'failed':
      if (following(panel, action.channelId)) return { ...panel, restarting: false, error: action.error };
      if (panel.kind === 'reconnect' && panel.channelId === action.channelId) return { ...panel, error: action.error };
      return panel;
    case 'event': {
      const { event } = action;
      if (event.name !== 'channel.qr_update' || !following(panel, event.payload.channel_id)) return panel;
      return { ...panel, qr: { kind: 'live', code: event.payload.qr_code }, qrVersion: panel.qrVersion + 1 };
    }
  }
}
