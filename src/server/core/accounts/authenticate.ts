import type { TokenKind } from '../../../contract/accounts.ts';
import type { Scope } from '../auth/ports.ts';
import type { TokenRepository } from '../ports.ts';
import { parseToken, secretMatches } from './token-secret.ts';

/**
 * Who is calling: a partner (`partnerId` null for the operator's partner key, which sees every account; a partner's
 * id when it signed in with Basic), or a token of one account. `scopes` limits an OAuth access token; the long-lived
 * tokens have every scope.
 */
export type Principal =
  | { kind: 'partner'; partnerId: string | null }
  | { kind: TokenKind; accountId: string; tokenId: string; scopes?: readonly Scope[] };

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
  return secretMatches(credential, deps.partnerKeyHash) ? { kind: 'partner', partnerId: null } : null;
}
