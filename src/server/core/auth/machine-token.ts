import { errors, jwtVerify, SignJWT } from 'jose';
import { AppError } from '../errors.ts';
import { parseScopes } from './scopes.ts';
import type { Scope } from './ports.ts';

/**
 * The machine token of the client credentials grant: a JWT (HS256, a key derived from SECRET_KEY for this alone) naming
 * the partner and its scopes. It is good for one thing, being exchanged for an account's tokens, by the same partner.
 */
export const MACHINE_TOKEN_TYPE = 'urn:wazzup:oauth:token-type:machine_token';
export const MACHINE_TOKEN_SECONDS = 3600;

const AUDIENCE = 'messaging-gateway/token-exchange';
/** The operator's partner key has no partner record; its tokens name this subject. */
const OPERATOR = 'operator';

export interface MachineClaims {
  partnerId: string | null;
  scopes: Scope[];
}

export async function signMachineToken(key: Uint8Array, issuer: string, claims: MachineClaims, now: Date): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({ scope: claims.scopes.join(' '), token_use: 'machine' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(issuer)
    .setAudience(AUDIENCE)
    .setSubject(claims.partnerId ?? OPERATOR)
    .setIssuedAt(iat)
    .setExpirationTime(iat + MACHINE_TOKEN_SECONDS)
    .sign(key);
}

/** The claims of a valid, unexpired machine token; `invalid_grant` otherwise. */
export async function verifyMachineToken(key: Uint8Array, issuer: string, token: string, now: Date): Promise<MachineClaims> {
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], issuer, audience: AUDIENCE, currentDate: now });
    if (payload.token_use !== 'machine' || typeof payload.sub !== 'string') throw new AppError('invalid_grant', 'The subject token is not a machine token');
    return { partnerId: payload.sub === OPERATOR ? null : payload.sub, scopes: parseScopes(payload.scope, []) };
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (err instanceof errors.JWTExpired) throw new AppError('invalid_grant', 'The machine token has expired');
    throw new AppError('invalid_grant', 'The machine token is not valid');
  }
}
