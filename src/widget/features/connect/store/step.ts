import { credentialFields } from '../../../../contract/credential-fields.ts';
import type { BffChannel } from '../../../../contract/session.ts';
import type { QrView } from './panel.ts';

/** Where a followed channel is in connecting, from its status/reason (kept by the stream) and the panel. */
export type Step =
  /** Not in the list (yet): the screen reads it. */
  | { kind: 'loading' }
  /** It was listed and is gone: deleted here or elsewhere. */
  | { kind: 'deleted' }
  | { kind: 'connected' }
  /** A QR to scan (or, for whatsapp, a pairing code to enter); `qr` may still be loading. */
  | { kind: 'scan'; qr: QrView; pairingCode: boolean }
  /** No code is live any more: a reinit shows a new one. */
  | { kind: 'new-code' }
  | { kind: 'password' }
  | { kind: 'syncing' }
  | { kind: 'authorize'; url: string }
  | { kind: 'waiting' }
  /** Off for a reason the admin fixes by reconnecting (or elsewhere, e.g. paying). */
  | { kind: 'off'; reason: string | null };

/** What the screen knows of a followed channel beyond its status: its code, a reinit under way, wapi's page. */
export interface Following {
  qr: QrView;
  restarting: boolean;
  url: string | null;
}

/** `deleted`: the stream or this screen deleted the channel. */
export function connectStep(channel: BffChannel | undefined, panel: Following, deleted: boolean): Step {
  if (!channel) return deleted ? { kind: 'deleted' } : { kind: 'loading' };
  const { status, reason } = channel;
  if (status === 'active') return { kind: 'connected' };
  if (status === 'disabled') return reason === 'qridle' ? { kind: 'new-code' } : { kind: 'off', reason };
  switch (reason) {
    case 'qr':
      // A reinit under way will bring a new code; until then the old "gone" must not offer another reinit.
      if (panel.qr.kind === 'gone' && !panel.restarting) return { kind: 'new-code' };
      return { kind: 'scan', qr: panel.qr, pairingCode: channel.capabilities.pairing_code };
    case 'wait_for_password':
      return { kind: 'password' };
    case 'sync':
      return { kind: 'syncing' };
    default: {
      const url = channel.url ?? panel.url;
      return url ? { kind: 'authorize', url } : { kind: 'waiting' };
    }
  }
}

/** Whether the screen should read the current QR: the channel waits for a scan (a code known is not read again). */
export const wantsQr = (channel: BffChannel | undefined): boolean => channel?.status === 'init' && channel.reason === 'qr';

/** The code as the scan step shows it, from what the cache holds: being read, live, or gone (none is live). */
export function qrView(qr: { qr_code: string; qr_content?: string } | null | undefined): QrView {
  if (qr === undefined) return { kind: 'loading' };
  if (qr === null) return { kind: 'gone' };
  return { kind: 'live', code: qr.qr_code, content: qr.qr_content };
}

/**
 * What a frame opened to reconnect one channel does first: a channel that is off is reconnected at once; one
 * that is connecting (a QR, a password) is followed where it is, since a reinit would throw that progress
 * away; a connected one is shown, so it is not cut off by merely opening the frame.
 */
export function reconnectPlan(channel: BffChannel | undefined): 'missing' | 'reinit' | 'credentials' | 'follow' {
  if (!channel) return 'missing';
  if (channel.status !== 'disabled') return 'follow';
  return reconnectsWithCredentials(channel) ? 'credentials' : 'reinit';
}

/**
 * Bots, codes and account details need their credentials again on reinit (the frame cannot read the stored
 * ones); QR, wapi and VK channels, which take none, start over without.
 */
export const reconnectsWithCredentials = (channel: Pick<BffChannel, 'transport'>): boolean => credentialFields[channel.transport].length > 0;
