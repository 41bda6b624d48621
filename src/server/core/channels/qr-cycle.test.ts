import { describe, expect, it } from 'vitest';
import { QR_LIFETIME_MS, qrProgress } from './qr-cycle.ts';

const t0 = new Date(Date.UTC(2030, 0, 1));
const at = (ms: number) => new Date(t0.getTime() + ms);
const first = { payload: 'p', issuedAt: t0, shown: 1 };

describe('QR cycle', () => {
  it('keeps a code live for 20 seconds', () => {
    expect(qrProgress(first, at(QR_LIFETIME_MS - 1))).toEqual({ kind: 'live', expiresAt: at(QR_LIFETIME_MS) });
  });

  it('issues the next code when one expires', () => {
    expect(qrProgress(first, at(QR_LIFETIME_MS))).toEqual({ kind: 'refresh', shown: 2, issuedAt: at(QR_LIFETIME_MS) });
  });

  it('counts the codes that would have been shown while nobody looked', () => {
    expect(qrProgress(first, at(3 * QR_LIFETIME_MS + 5))).toEqual({ kind: 'refresh', shown: 4, issuedAt: at(3 * QR_LIFETIME_MS) });
  });

  it('goes idle once the sixth code expires unscanned', () => {
    const sixth = { payload: 'p', issuedAt: t0, shown: 6 };
    expect(qrProgress(sixth, at(QR_LIFETIME_MS - 1)).kind).toBe('live');
    expect(qrProgress(sixth, at(QR_LIFETIME_MS))).toEqual({ kind: 'exhausted' });
    expect(qrProgress(first, at(6 * QR_LIFETIME_MS))).toEqual({ kind: 'exhausted' });
    expect(qrProgress(first, at(6 * QR_LIFETIME_MS - 1)).kind).toBe('refresh');
  });
});
