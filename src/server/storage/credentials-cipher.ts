import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { deriveKey } from '../core/keys.ts';
import type { CredentialsCipher } from '../core/channels/ports.ts';

/**
 * Channel credentials at rest: AES-256-GCM under a key derived from SECRET_KEY (HKDF, its own label),
 * stored as `v1.<iv>.<tag>.<ciphertext>` in base64url. Tampering fails authentication on open.
 */
export function credentialsCipher(secretKey: string, purpose = 'channel-credentials/v1'): CredentialsCipher {
  // Each purpose (channel credentials, webhook signing secrets) has a key of its own.
  const key = deriveKey(secretKey, purpose);
  return {
    seal(credentials) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(JSON.stringify(credentials), 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), body].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
    },
    open(sealed) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('unknown credentials format');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      const plain = Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]);
      return JSON.parse(plain.toString('utf8')) as Record<string, unknown>;
    },
  };
}
