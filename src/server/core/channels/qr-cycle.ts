import type { QrCycle } from './ports.ts';

/** A QR lives about 20 seconds; after the 6th expires unscanned the channel goes to qridle (docs/decisions.md). */
export const QR_LIFETIME_MS = 20_000;
export const QR_CODES_BEFORE_IDLE = 6;

export type QrProgress =
  | { kind: 'live'; expiresAt: Date }
  | { kind: 'refresh'; shown: number; issuedAt: Date }
  | { kind: 'exhausted' };

/**
 * Where a QR cycle stands at `now`. Time may have moved by several lifetimes since the last look (a
 * restart, a late timer): the codes that would have been shown meanwhile count, and only the current
 * one is issued. Pure.
 */
export function qrProgress(qr: QrCycle, now: Date): QrProgress {
  const elapsed = now.getTime() - qr.issuedAt.getTime();
  const lifetimes = Math.floor(elapsed / QR_LIFETIME_MS);
  if (lifetimes < 1) return { kind: 'live', expiresAt: new Date(qr.issuedAt.getTime() + QR_LIFETIME_MS) };
  const shown = qr.shown + lifetimes;
  if (shown > QR_CODES_BEFORE_IDLE) return { kind: 'exhausted' };
  return { kind: 'refresh', shown, issuedAt: new Date(qr.issuedAt.getTime() + lifetimes * QR_LIFETIME_MS) };
}
