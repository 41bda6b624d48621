import type { Clock } from '../ports.ts';
import { endGrants, type Caller } from './grants.ts';
import { partnerAccount } from './partner-accounts.ts';
import type { AuthRepository, GrantsEnded } from './ports.ts';

/** Ends every OAuth grant of an account: its access and refresh tokens stop working at once, and what they minted ends. */
export async function revokeAccountGrants(
  deps: { auth: AuthRepository; clock: Clock; grantsEnded?: GrantsEnded | undefined },
  caller: Caller,
  ref: string,
): Promise<{ revoked: number }> {
  const account = await partnerAccount(deps.auth, caller, ref);
  const ids = await deps.auth.grants.revokeAccount(account.accountId, deps.clock.now());
  // Already revoked above; endGrants revokes nothing twice and tells what the grants minted to end.
  await endGrants(deps, ids);
  return { revoked: ids.length };
}
