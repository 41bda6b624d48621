import { randomBytes, randomUUID } from 'node:crypto';
import { hashSecret } from '../accounts/token-secret.ts';

/**
 * OAuth's opaque credentials: `<prefix>_<record id without dashes>_<256-bit secret>`, as the gateway's API tokens are,
 * each kind with a prefix of its own (`mga` access, `mgr` refresh, `mgc` authorization code) so one can never be
 * presented as another. Only the secret's SHA-256 is stored.
 */
export type OpaqueKind = 'mga' | 'mgr' | 'mgc';

const SHAPE = /^(mga|mgr|mgc)_([0-9a-f]{32})_([A-Za-z0-9_-]{43})$/;

export function mintOpaque(kind: OpaqueKind): { id: string; token: string; secretHash: string } {
  const id = randomUUID();
  const secret = randomBytes(32).toString('base64url');
  return { id, token: `${kind}_${id.replaceAll('-', '')}_${secret}`, secretHash: hashSecret(secret) };
}

export function parseOpaque(token: string, kind: OpaqueKind): { id: string; secret: string } | null {
  const m = SHAPE.exec(token);
  if (!m || m[1] !== kind) return null;
  const hex = m[2]!;
  return { id: `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`, secret: m[3]! };
}
