import { randomBytes, randomUUID } from 'node:crypto';
import { hashSecret, secretMatches } from '../accounts/token-secret.ts';

/**
 * Session tokens look like `mgs_<session id without dashes>_<secret>`: the id finds the stored session, the
 * secret (256 random bits) is kept only as a SHA-256 hash and compared in constant time.
 */
const PREFIX = 'mgs_';
const FORMAT = /^mgs_([0-9a-f]{32})_([A-Za-z0-9_-]{43})$/;

export function mintSessionToken(): { id: string; token: string; secretHash: string } {
  const id = randomUUID();
  const secret = randomBytes(32).toString('base64url');
  return { id, token: `${PREFIX}${id.replaceAll('-', '')}_${secret}`, secretHash: hashSecret(secret) };
}

export function parseSessionToken(token: string): { id: string; secret: string } | null {
  const match = FORMAT.exec(token);
  if (!match?.[1] || !match[2]) return null;
  const h = match[1];
  return { id: `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`, secret: match[2] };
}

export const sessionSecretMatches = secretMatches;
