import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

/**
 * API tokens look like `mgw_<token id without dashes>_<secret>`. The id locates the stored record; the
 * secret is kept only as a SHA-256 hash (the secret is 256 random bits, so a slow password hash adds
 * nothing) and compared in constant time.
 */
const PREFIX = 'mgw_';
const ID_HEX = /^[0-9a-f]{32}$/;
const SECRET = /^[A-Za-z0-9_-]{43}$/;

export interface MintedToken {
  id: string;
  token: string;
  secretHash: string;
}

export function mintToken(): MintedToken {
  const id = randomUUID();
  const secret = randomBytes(32).toString('base64url');
  return { id, token: `${PREFIX}${id.replaceAll('-', '')}_${secret}`, secretHash: hashSecret(secret) };
}

export function parseToken(token: string): { id: string; secret: string } | null {
  if (!token.startsWith(PREFIX)) return null;
  const body = token.slice(PREFIX.length);
  const idHex = body.slice(0, 32);
  const secret = body.slice(33);
  if (body[32] !== '_' || !ID_HEX.test(idHex) || !SECRET.test(secret)) return null;
  const id = `${idHex.slice(0, 8)}-${idHex.slice(8, 12)}-${idHex.slice(12, 16)}-${idHex.slice(16, 20)}-${idHex.slice(20)}`;
  return { id, secret };
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Constant-time comparison of a presented secret with a stored hash (or of two raw secrets, via their hashes). */
export function secretMatches(secret: string, storedHash: string): boolean {
  const presented = Buffer.from(hashSecret(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}
