import { randomUUID } from 'node:crypto';
import { secretMatches } from '../accounts/token-secret.ts';
import { AppError } from '../errors.ts';
import type { Clock } from '../ports.ts';
import { mintOpaque, parseOpaque } from './opaque-token.ts';
import type { AuthRepository, GrantRecord, GrantsEnded, Scope } from './ports.ts';
import { scopeText } from './scopes.ts';

/** A client access token lives an hour, its refresh token a week (what clients of the service plan for). */
export const ACCESS_SECONDS = 3600;
export const REFRESH_SECONDS = 7 * 24 * 3600;

export interface TokenSet {
  access_token: string;
  refresh_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
}

/** Who asks the token endpoint: a partner by its Basic login, or the operator's partner key (null). */
export interface Caller {
  partnerId: string | null;
}

type Deps = { auth: AuthRepository; clock: Clock; grantsEnded?: GrantsEnded | undefined };

/**
 * Revokes grants, every access and refresh token of them with it, and ends what those tokens minted: an access token's
 * principal names its grant as the token that made a frame link or session.
 */
export async function endGrants(deps: Deps, grantIds: string[]): Promise<void> {
  const now = deps.clock.now();
  for (const id of grantIds) await deps.auth.grants.revoke(id, now);
  if (grantIds.length > 0) await deps.grantsEnded?.(grantIds);
}

const later = (from: Date, seconds: number) => new Date(from.getTime() + seconds * 1000);

async function mintPair({ auth, clock }: Deps, grant: GrantRecord): Promise<TokenSet> {
  const now = clock.now();
  const access = mintOpaque('mga');
  const refresh = mintOpaque('mgr');
  await auth.tokens.insert({ id: access.id, grantId: grant.id, kind: 'access', secretHash: access.secretHash, createdAt: now, expiresAt: later(now, ACCESS_SECONDS), spentAt: null });
  await auth.tokens.insert({ id: refresh.id, grantId: grant.id, kind: 'refresh', secretHash: refresh.secretHash, createdAt: now, expiresAt: later(now, REFRESH_SECONDS), spentAt: null });
  return { access_token: access.token, refresh_token: refresh.token, token_type: 'Bearer', expires_in: ACCESS_SECONDS, scope: scopeText(grant.scopes) };
}

/** A new grant (a family of tokens) for an account, and its first access and refresh tokens. */
export async function startGrant(
  deps: Deps,
  grant: { id?: string; accountId: string; partnerId: string | null; clientId: string | null; scopes: Scope[] },
): Promise<TokenSet> {
  const record: GrantRecord = { id: grant.id ?? randomUUID(), ...grant, createdAt: deps.clock.now(), revokedAt: null };
  await deps.auth.grants.insert(record);
  return mintPair(deps, record);
}

/**
 * Trades a refresh token for a new pair in the same grant; the old one is spent. A spent one presented again means it
 * was copied: the whole grant is revoked, every token of it with it, and the call fails like any bad grant.
 */
export async function refreshGrant(deps: Deps, caller: Caller, presented: string, clientId: string | undefined): Promise<TokenSet> {
  const parsed = parseOpaque(presented, 'mgr');
  const found = parsed ? await deps.auth.tokens.get(parsed.id) : undefined;
  if (!parsed || !found || found.token.kind !== 'refresh' || !secretMatches(parsed.secret, found.token.secretHash)) {
    throw new AppError('invalid_grant', 'The refresh token is not valid');
  }
  const { token, grant } = found;
  if (grant.partnerId !== caller.partnerId) throw new AppError('invalid_grant', 'The refresh token was issued to another partner');
  if (clientId !== undefined && grant.clientId !== null && clientId !== grant.clientId) throw new AppError('invalid_grant', 'The refresh token was issued to another client');
  const now = deps.clock.now();
  if (grant.revokedAt) throw new AppError('invalid_grant', 'The grant has been revoked');
  if (token.spentAt || !(await deps.auth.tokens.spend(token.id, now))) {
    await endGrants(deps, [grant.id]);
    throw new AppError('invalid_grant', 'The refresh token was already used; every token of its grant is revoked');
  }
  if (token.expiresAt <= now) throw new AppError('invalid_grant', 'The refresh token has expired');
  return mintPair(deps, grant);
}

export interface AccessPrincipal {
  accountId: string;
  grantId: string;
  scopes: Scope[];
}

/** The account and scopes of a live access token; null for anything else (malformed, wrong, expired, revoked). */
export async function authenticateAccess(deps: Deps, credential: string): Promise<AccessPrincipal | null> {
  const parsed = parseOpaque(credential, 'mga');
  const found = parsed ? await deps.auth.tokens.get(parsed.id) : undefined;
  if (!parsed || !found || found.token.kind !== 'access' || !secretMatches(parsed.secret, found.token.secretHash)) return null;
  if (found.grant.revokedAt || found.token.expiresAt <= deps.clock.now()) return null;
  return { accountId: found.grant.accountId, grantId: found.grant.id, scopes: found.grant.scopes };
}
