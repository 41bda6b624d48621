import { createHmac, timingSafeEqual } from 'node:crypto';
import { deriveKey } from '../keys.ts';
import type { DownloadLinks } from './ports.ts';

/** How long a finished export's link works. */
export const DOWNLOAD_LINK_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Export download links: `${publicUrl}/downloads/exports/<id>.csv?expires=<unix s>&signature=<b64url>`, the
 * signature an HMAC-SHA256 of the id and expiry under a key derived from SECRET_KEY (HKDF, its own label),
 * so a link can be neither forged nor extended. Anyone holding a valid link may download, like a presigned URL.
 */
export function downloadLinks(secretKey: string, publicUrl: string): DownloadLinks {
  const key = deriveKey(secretKey, 'export-download-links/v1');
  const sign = (exportId: string, expires: string) => createHmac('sha256', key).update(`exports/${exportId}.csv\n${expires}`).digest();
  return {
    url(exportId, expiresAt) {
      const expires = String(Math.floor(expiresAt.getTime() / 1000));
      const signature = sign(exportId, expires).toString('base64url');
      return `${publicUrl}/downloads/exports/${exportId}.csv?expires=${expires}&signature=${signature}`;
    },
    verify(exportId, expires, signature) {
      if (!/^\d{1,15}$/.test(expires)) return false;
      const given = Buffer.from(signature, 'base64url');
      const expected = sign(exportId, expires);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}
