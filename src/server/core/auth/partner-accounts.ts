import { AppError } from '../errors.ts';
import type { Caller } from './grants.ts';
import type { AccountProfile, AuthRepository } from './ports.ts';

/**
 * An account as the calling partner may see it: the operator's partner key sees every account, a partner signed in
 * with Basic only those it created. Another partner's account is reported as not found, never as forbidden.
 */
export async function partnerAccount(auth: AuthRepository, caller: Caller, ref: string | number): Promise<AccountProfile> {
  const account = await auth.accounts.find(String(ref));
  if (!account || (caller.partnerId !== null && account.partnerId !== caller.partnerId)) {
    throw new AppError('ACCOUNT_NOT_FOUND', 'Account not found');
  }
  return account;
}
