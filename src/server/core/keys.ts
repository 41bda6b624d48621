import { hkdfSync } from 'node:crypto';

/**
 * A 32-byte key of its own for one purpose (`iframe-links/v1`, `channel-credentials/v1`…), derived from SECRET_KEY
 * with HKDF: no key of the gateway can stand in for another, and a purpose's label is its version.
 */
export const deriveKey = (secretKey: string, purpose: string): Buffer => Buffer.from(hkdfSync('sha256', secretKey, 'messaging-gateway', purpose, 32));
