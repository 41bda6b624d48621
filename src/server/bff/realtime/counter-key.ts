import { authenticate } from '../../core/accounts/authenticate.ts';
import { authenticateAccess } from '../../core/auth/grants.ts';
import type { AuthRepository } from '../../core/auth/ports.ts';
import type { Clock, TokenRepository } from '../../core/ports.ts';

export interface CounterKeyDeps {
  tokens: TokenRepository;
  /** OAuth access tokens; without it only the long-lived client tokens are keys. */
  oauth?: { auth: AuthRepository; clock: Clock } | undefined;
}

/**
 * The account a v3 API key acts for on the counter, as on `GET /v3/unanswered/:userId`: the account's client token,
 * or an OAuth access token holding the `crm` scope. A sidecar key, the partner key and anything else are no key.
 */
export async function accountOfCounterKey(deps: CounterKeyDeps, apiKey: string): Promise<string | null> {
  // No partner key hash: the partner key is not an account's key, so it never matches here.
  const principal = await authenticate({ tokens: deps.tokens, partnerKeyHash: '' }, apiKey);
  if (principal) return principal.kind === 'client' ? principal.accountId : null;
  if (!deps.oauth) return null;
  const access = await authenticateAccess(deps.oauth, apiKey);
  return access && access.scopes.includes('crm') ? access.accountId : null;
}
