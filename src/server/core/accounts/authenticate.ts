import type { TokenKind } from '../../../contract/accounts.ts';
import type { TokenRepository } from '../ports.ts';
import { parseToken, secretMatches } from './token-secret.ts';

/** Who is calling: the partner that runs the gateway, or a token of one account. */
export type Principal =
  | { kind: 'partner' }
  | { kind: TokenKind; accountId: string; tokenId: string };

/**
 * Resolves a bearer credential. The partner key is compared in constant time against its hash; account
 * tokens are located by their id and their secret compared in constant time. Unknown, malformed and
 * revoked credentials all resolve to null, so callers cannot tell which one it was.
 */
export async function authenticate(
  deps: { tokens: TokenRepository; partnerKeyHash: string },
  credential: string,
): Promise<Principal | null> {
  // Account tokens first: they carry nearly every request, and a valid one is never the partner key, so the
  // partner key's hash is computed only for what is not a valid account token.
  const parsed = parseToken(credential);
  const token = parsed ? await deps.tokens.get(parsed.id) : undefined;
  if (parsed && token && !token.revokedAt && secretMatches(parsed.secret, token.secretHash)) {
    return { kind: token.kind, accountId: token.accountId, tokenId: token.id };
  }
  return secretMatches(credential, deps.partnerKeyHash) ? { kind: 'partner' } : null;
}
