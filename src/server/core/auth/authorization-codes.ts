import { createHash, randomUUID } from 'node:crypto';
import { secretMatches } from '../accounts/token-secret.ts';
import { AppError } from '../errors.ts';
import type { Clock } from '../ports.ts';
import { endGrants, startGrant, type Caller, type TokenSet } from './grants.ts';
import { mintOpaque, parseOpaque } from './opaque-token.ts';
import type { AuthRepository, GrantsEnded, OAuthClientRecord, Scope } from './ports.ts';
import { parseScopes } from './scopes.ts';

/** A code is good for five minutes, once. */
export const CODE_SECONDS = 300;

const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/** An S256 challenge is the base64url of a SHA-256: 43 characters. */
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

type Deps = { auth: AuthRepository; clock: Clock; grantsEnded?: GrantsEnded | undefined };

export interface AuthorizeRequest {
  client: OAuthClientRecord;
  redirectUri: string;
  scopes: Scope[];
  state: string | undefined;
  codeChallenge: string;
}

/** Where an authorization request cannot go back to its client: shown on the page itself, never redirected. */
export class UnsafeAuthorizeRequest extends Error {}

/** Where it can: the client hears `error` at its redirect URI, with its state. */
export class AuthorizeRefusal extends Error {
  readonly error: 'invalid_request' | 'unsupported_response_type' | 'invalid_scope' | 'access_denied';

  constructor(error: AuthorizeRefusal['error'], description: string) {
    super(description);
    this.error = error;
  }
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/**
 * Checks an authorization request (RFC 6749 §4.1.1 with PKCE, RFC 7636). The client and its redirect URI (compared
 * exactly) are checked first: until both hold, nothing is sent to the address given.
 */
export async function checkAuthorizeRequest(auth: AuthRepository, query: Record<string, unknown>): Promise<AuthorizeRequest> {
  const clientId = text(query.client_id);
  const client = clientId ? await auth.clients.get(clientId) : undefined;
  if (!client) throw new UnsafeAuthorizeRequest('Unknown client_id');
  const redirectUri = text(query.redirect_uri);
  if (!redirectUri || !client.redirectUris.includes(redirectUri)) throw new UnsafeAuthorizeRequest('The redirect_uri is not one the client registered');
  if (query.response_type !== 'code') throw new AuthorizeRefusal('unsupported_response_type', 'response_type must be code');
  if (query.code_challenge_method !== 'S256') throw new AuthorizeRefusal('invalid_request', 'code_challenge_method must be S256');
  const codeChallenge = text(query.code_challenge);
  if (!codeChallenge || !CHALLENGE.test(codeChallenge)) throw new AuthorizeRefusal('invalid_request', 'code_challenge must be the base64url SHA-256 of the verifier');
  let scopes: Scope[];
  try {
    scopes = parseScopes(query.scope);
  } catch (err) {
    throw new AuthorizeRefusal('invalid_scope', (err as Error).message);
  }
  return { client, redirectUri, scopes, state: text(query.state), codeChallenge };
}

/** The owner allowed it: a code bound to the client, the redirect URI, the challenge and the account. */
export async function issueCode(deps: Deps, request: AuthorizeRequest, accountId: string): Promise<string> {
  const now = deps.clock.now();
  const minted = mintOpaque('mgc');
  await deps.auth.codes.insert({
    id: minted.id,
    secretHash: minted.secretHash,
    clientId: request.client.id,
    accountId,
    redirectUri: request.redirectUri,
    codeChallenge: request.codeChallenge,
    scopes: request.scopes,
    createdAt: now,
    expiresAt: new Date(now.getTime() + CODE_SECONDS * 1000),
    usedAt: null,
    grantId: null,
  });
  return minted.token;
}

const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/**
 * Trades a code for tokens. The partner must own the client, and client, redirect URI and verifier must be those the
 * code was bound to. A code presented a second time by them revokes what its first use produced (RFC 6749 §4.1.2).
 */
export async function redeemCode(
  deps: Deps,
  caller: Caller,
  input: { code?: unknown; redirect_uri?: unknown; client_id?: unknown; code_verifier?: unknown },
): Promise<TokenSet> {
  const { code, redirect_uri: redirectUri, client_id: clientId, code_verifier: verifier } = input;
  if (typeof code !== 'string' || typeof redirectUri !== 'string' || typeof clientId !== 'string' || typeof verifier !== 'string') {
    throw new AppError('invalid_request', 'authorize_code_data needs code, redirect_uri, client_id and code_verifier');
  }
  if (!VERIFIER.test(verifier)) throw new AppError('invalid_request', 'code_verifier must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~');
  const client = await deps.auth.clients.get(clientId);
  if (!client || client.partnerId !== caller.partnerId) throw new AppError('invalid_client', 'Unknown client_id for this partner');
  const parsed = parseOpaque(code, 'mgc');
  const record = parsed ? await deps.auth.codes.get(parsed.id) : undefined;
  if (!parsed || !record || !secretMatches(parsed.secret, record.secretHash)) throw new AppError('invalid_grant', 'The code is not valid');
  const now = deps.clock.now();
  // Checked before a spent code's revocation: only the client the code was issued to, at its redirect URI and with
  // its verifier, replays it; anyone else holding the code must not be able to end the rightful holder's grant.
  if (record.clientId !== client.id) throw new AppError('invalid_grant', 'The code was issued to another client');
  if (record.redirectUri !== redirectUri) throw new AppError('invalid_grant', 'The redirect_uri differs from the one the code was issued for');
  if (s256(verifier) !== record.codeChallenge) throw new AppError('invalid_grant', 'The code_verifier does not match the code_challenge');
  if (record.usedAt) {
    if (record.grantId) await endGrants(deps, [record.grantId]);
    throw new AppError('invalid_grant', 'The code was already used');
  }
  if (record.expiresAt <= now) throw new AppError('invalid_grant', 'The code has expired');
  const grantId = randomUUID();
  const tokens = await startGrant(deps, { id: grantId, accountId: record.accountId, partnerId: client.partnerId, clientId: client.id, scopes: record.scopes });
  if (!(await deps.auth.codes.redeem(record.id, now, grantId))) {
    // Another request redeemed it at the same moment: neither keeps its tokens.
    const winner = await deps.auth.codes.get(record.id);
    await endGrants(deps, winner?.grantId ? [grantId, winner.grantId] : [grantId]);
    throw new AppError('invalid_grant', 'The code was already used');
  }
  return tokens;
}
