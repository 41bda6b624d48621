import type { Clock } from '../ports.ts';
import type { Caller } from './grants.ts';
import { partnerAccount } from './partner-accounts.ts';
import type { AuthRepository } from './ports.ts';

/** Ends every OAuth grant of an account: its access and refresh tokens stop working at once. */
export async function revokeAccountGrants(deps: { auth: AuthRepository; clock: Clock }, caller: Caller, ref: string): Promise<{ revoked: number }> {
  const account = await partnerAccount(deps.auth, caller, ref);
  return { revoked: await deps.auth.grants.revokeAccount(account.accountId, deps.clock.now()) };
}
