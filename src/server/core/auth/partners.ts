import { randomUUID } from 'node:crypto';
import { AppError } from '../errors.ts';
import type { Clock } from '../ports.ts';
import { hashPassword, passwordMatches } from './passwords.ts';
import type { AuthRepository, PartnerRecord } from './ports.ts';

const LOGIN = /^[\x21-\x39\x3b-\x7e]{3,100}$/;

/** Creates a partner's Basic login, or gives an existing one a new secret (the old one stops working). */
export async function setPartnerCredentials(
  deps: { auth: AuthRepository; clock: Clock },
  login: string,
  secret: string,
): Promise<{ partner_id: string; login: string }> {
  // A colon cannot be part of a Basic login: it separates the login from the secret.
  if (!LOGIN.test(login)) throw new AppError('VALIDATION_ERROR', 'The login must be 3 to 100 printable characters without spaces or colons');
  if (secret.length < 12 || secret.length > 256) throw new AppError('VALIDATION_ERROR', 'The secret must be 12 to 256 characters');
  const partner = await deps.auth.partners.upsert({ id: randomUUID(), login, secretHash: await hashPassword(secret), createdAt: deps.clock.now() });
  return { partner_id: partner.id, login: partner.login };
}

/** The partner whose login and secret these are, or null (unknown login and wrong secret alike). */
export async function authenticatePartner(auth: AuthRepository, login: string, secret: string): Promise<PartnerRecord | null> {
  const partner = await auth.partners.byLogin(login);
  return (await passwordMatches(secret, partner?.secretHash)) ? partner! : null;
}
