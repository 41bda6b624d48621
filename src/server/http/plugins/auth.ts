import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { basicCredentials, bearerToken } from '../../../contract/authorization.ts';
import { authenticate, type Principal } from '../../core/accounts/authenticate.ts';
import { authenticateAccess } from '../../core/auth/grants.ts';
import { authenticatePartner } from '../../core/auth/partners.ts';
import type { AuthRepository } from '../../core/auth/ports.ts';
import { AppError } from '../../core/errors.ts';
import type { Clock, TokenRepository } from '../../core/ports.ts';
import type { FailedAuthLimiter } from '../rate-limit/failed-auth.ts';
import type { SignInLimiter } from '../rate-limit/sign-in-limiter.ts';
import { scopesOfRoute } from './route-scopes.ts';

/**
 * Who may call a route:
 * - `partner`: the partner key, or a partner's Basic login (account administration, the token endpoint);
 * - `client`: a client token of an account, or an OAuth access token with the route's scope (the default for every /v2 route);
 * - `sidecar`: a client token or a sidecar key (send, edit, delete messages; read channels and templates).
 */
export type Access = 'partner' | 'client' | 'sidecar';

export type AccountPrincipal = Extract<Principal, { accountId: string }>;
export type PartnerPrincipal = Extract<Principal, { kind: 'partner' }>;

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    principal: Principal | null;
  }
}

function allowed(principal: Principal, access: Access): boolean {
  if (access === 'partner') return principal.kind === 'partner';
  if (access === 'client') return principal.kind === 'client';
  return principal.kind === 'client' || principal.kind === 'sidecar';
}

/** The calling account of a route that requires one (the auth hook has already checked). */
export function accountOf(request: FastifyRequest): AccountPrincipal {
  const p = request.principal;
  if (!p || p.kind === 'partner') throw new AppError('UNAUTHORIZED', 'An account token is required');
  return p;
}

/** The calling partner of a partner route (the auth hook has already checked). */
export function partnerOf(request: FastifyRequest): PartnerPrincipal {
  const p = request.principal;
  if (!p || p.kind !== 'partner') throw new AppError('UNAUTHORIZED', 'Partner credentials are required');
  return p;
}

export interface AuthOptions {
  tokens: TokenRepository;
  partnerKeyHash: string;
  /** Partners' Basic logins and OAuth access tokens; only the partner key and long-lived tokens without it. */
  oauth?: { auth: AuthRepository; clock: Clock; failures: SignInLimiter };
  /** Failed authentications by caller address; an address past the limit is refused before its credential is read. */
  failedAuth?: FailedAuthLimiter | undefined;
}

/** 429 for an address that failed authentication too often; Retry-After says when it may try again. */
export function refuseBlockedAddress(reply: FastifyReply, retryAfterSeconds: number): never {
  reply.header('Retry-After', String(retryAfterSeconds));
  throw new AppError('TOO_MANY_REQUESTS', 'Too many failed authentications from this address', { retry_after: retryAfterSeconds });
}

/** A partner's Basic login, counted per caller address before its secret is hashed (sign-in-limiter.ts). */
async function basicPartner(oauth: NonNullable<AuthOptions['oauth']>, request: FastifyRequest, reply: FastifyReply, login: string, secret: string): Promise<Principal> {
  const outcome = await oauth.failures.attempt(request.ip, () => authenticatePartner(oauth.auth, login, secret));
  if (outcome.kind === 'refused') {
    reply.header('Retry-After', String(outcome.retryAfterSeconds));
    throw new AppError('TOO_MANY_REQUESTS', 'Too many failed sign-ins from this address', { retry_after: outcome.retryAfterSeconds });
  }
  if (outcome.kind === 'failed') throw new AppError('UNAUTHORIZED', 'Wrong partner login or secret');
  return { kind: 'partner', partnerId: outcome.value.id };
}

async function bearerPrincipal(opts: AuthOptions, token: string): Promise<Principal | null> {
  const principal = await authenticate(opts, token);
  if (principal || !opts.oauth) return principal;
  const access = await authenticateAccess(opts.oauth, token);
  return access && { kind: 'client', accountId: access.accountId, tokenId: access.grantId, scopes: access.scopes };
}

/** Authenticates every route registered in its scope and enforces the route's `access` and an OAuth token's scope. */
export const authPlugin = fp<AuthOptions>(
  async (app: FastifyInstance, opts) => {
    app.decorateRequest('principal', null);
    app.addHook('onRequest', async (request, reply) => {
      const access = request.routeOptions.config.access ?? 'client';
      const basic = opts.oauth && access === 'partner' ? basicCredentials(request.headers.authorization) : null;
      const token = basic ? null : bearerToken(request.headers.authorization);
      let principal: Principal | null;
      if (basic) {
        // An address blocked for guessing tokens is not let guess secrets either.
        const blocked = await opts.failedAuth?.isAddressBlocked(request.ip);
        if (blocked) refuseBlockedAddress(reply, blocked);
        // Fastify's reply header is set before the error is thrown, so a 401 still names the scheme.
        reply.header('WWW-Authenticate', 'Basic realm="partner", charset="UTF-8"');
        principal = await basicPartner(opts.oauth!, request, reply, basic.login, basic.secret);
        reply.removeHeader('WWW-Authenticate');
      } else if (opts.failedAuth) {
        // Counted before the token is looked up: a burst of guesses is checked no further than the limit.
        const outcome = await opts.failedAuth.attempt(request.ip, async () => (token ? bearerPrincipal(opts, token) : null));
        if (outcome.kind === 'refused') refuseBlockedAddress(reply, outcome.retryAfterSeconds);
        principal = outcome.kind === 'passed' ? outcome.value : null;
      } else {
        principal = token ? await bearerPrincipal(opts, token) : null;
      }
      if (!principal) throw new AppError('UNAUTHORIZED', 'Missing or invalid credentials');
      if (!allowed(principal, access)) {
        if (principal.kind === 'sidecar') throw new AppError('FORBIDDEN', 'This route is not allowed for a sidecar key');
        throw new AppError('UNAUTHORIZED', access === 'partner' ? 'Partner credentials are required' : 'An account token is required');
      }
      const held = principal.kind === 'partner' ? undefined : principal.scopes;
      const lacking = held ? scopesOfRoute(request.routeOptions.url).filter((s) => !held.includes(s)) : [];
      if (lacking.length > 0) throw new AppError('FORBIDDEN', `This token lacks the ${lacking.join(' and ')} scope`);
      request.principal = principal;
    });
  },
  { name: 'auth', dependencies: ['errors'] },
);
