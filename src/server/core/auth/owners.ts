import { AppError } from '../errors.ts';
import type { Clock } from '../ports.ts';
import type { Caller } from './grants.ts';
import { partnerAccount } from './partner-accounts.ts';
import { hashPassword, passwordMatches } from './passwords.ts';
import type { AuthRepository } from './ports.ts';

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;

const normalEmail = (email: string) => email.trim().toLowerCase();

/** Gives an account's owner (or a new owner) a sign-in for the authorization page: an email and a password. */
export async function setAccountOwner(
  deps: { auth: AuthRepository; clock: Clock },
  caller: Caller,
  accountRef: string,
  input: { email: string; password: string },
): Promise<{ account_id: number; email: string }> {
  const account = await partnerAccount(deps.auth, caller, accountRef);
  const email = normalEmail(input.email);
  if (!EMAIL.test(email)) throw new AppError('VALIDATION_ERROR', 'Not an email address');
  if (input.password.length < 10 || input.password.length > 256) throw new AppError('VALIDATION_ERROR', 'The password must be 10 to 256 characters');
  // Hashed whether or not it is kept, so that the answer takes as long either way.
  const passwordHash = await hashPassword(input.password);
  const answer = { account_id: account.publicId, email };
  const taken = await deps.auth.owners.byEmail(email);
  if (taken && taken.accountId !== account.accountId) {
    // One email signs in to one account. A caller that administers the other account is told; any other partner is
    // answered as if it were set, and nothing changes: it must not learn whose sign-in an email is (docs/decisions.md).
    const other = await deps.auth.accounts.find(taken.accountId);
    if (caller.partnerId === null || other?.partnerId === caller.partnerId) throw new AppError('VALIDATION_ERROR', 'This email signs in to another account');
    return answer;
  }
  await deps.auth.owners.set({ accountId: account.accountId, email, passwordHash, createdAt: deps.clock.now() });
  return answer;
}

/** The account whose owner this is, or null (unknown email and wrong password alike, in the same time). */
export async function signInOwner(auth: AuthRepository, email: string, password: string): Promise<string | null> {
  const owner = await auth.owners.byEmail(normalEmail(email));
  return (await passwordMatches(password, owner?.passwordHash)) ? owner!.accountId : null;
}
