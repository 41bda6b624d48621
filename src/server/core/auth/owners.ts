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
  const taken = await deps.auth.owners.byEmail(email);
  if (taken && taken.accountId !== account.accountId) throw new AppError('VALIDATION_ERROR', 'This email signs in to another account');
  await deps.auth.owners.set({ accountId: account.accountId, email, passwordHash: await hashPassword(input.password), createdAt: deps.clock.now() });
  return { account_id: account.publicId, email };
}

/** The account whose owner this is, or null (unknown email and wrong password alike, in the same time). */
export async function signInOwner(auth: AuthRepository, email: string, password: string): Promise<string | null> {
  const owner = await auth.owners.byEmail(normalEmail(email));
  return (await passwordMatches(password, owner?.passwordHash)) ? owner!.accountId : null;
}
