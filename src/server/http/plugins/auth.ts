import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { bearerToken } from '../../../contract/authorization.ts';
import { authenticate, type Principal } from '../../core/accounts/authenticate.ts';
import { AppError } from '../../core/errors.ts';
import type { TokenRepository } from '../../core/ports.ts';
import type { FailedAuthLimiter } from '../rate-limit/failed-auth.ts';

/**
 * Who may call a route:
 * - `partner`: the partner key only (account administration);
 * - `client`: a client token of an account (the default for every /v2 route);
 * - `sidecar`: a client token or a sidecar key (send, edit, delete messages; read channels and templates).
 */
export type Access = 'partner' | 'client' | 'sidecar';

export type AccountPrincipal = Extract<Principal, { accountId: string }>;

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

export interface AuthOptions {
  tokens: TokenRepository;
  partnerKeyHash: string;
  /** Failed authentications by caller address; an address past the limit is refused before its credential is read. */
  failedAuth?: FailedAuthLimiter | undefined;
}

/** 429 for an address that failed authentication too often; Retry-After says when it may try again. */
export function refuseBlockedAddress(reply: FastifyReply, retryAfterSeconds: number): never {
  reply.header('Retry-After', String(retryAfterSeconds));
  throw new AppError('TOO_MANY_REQUESTS', 'Too many failed authentications from this address', { retry_after: retryAfterSeconds });
}

/** Authenticates every route registered in its scope and enforces the route's `access`. */
export const authPlugin = fp<AuthOptions>(
  async (app: FastifyInstance, opts) => {
    app.decorateRequest('principal', null);
    app.addHook('onRequest', async (request, reply) => {
      const blocked = await opts.failedAuth?.isAddressBlocked(request.ip);
      if (blocked) refuseBlockedAddress(reply, blocked);
      const access = request.routeOptions.config.access ?? 'client';
      const token = bearerToken(request.headers.authorization);
      const principal = token ? await authenticate(opts, token) : null;
      if (!principal) {
        await opts.failedAuth?.recordFailedAuth(request.ip);
        throw new AppError('UNAUTHORIZED', 'Missing or invalid bearer token');
      }
      if (!allowed(principal, access)) {
        if (principal.kind === 'sidecar') throw new AppError('FORBIDDEN', 'This route is not allowed for a sidecar key');
        throw new AppError('UNAUTHORIZED', access === 'partner' ? 'The partner key is required' : 'An account token is required');
      }
      request.principal = principal;
    });
  },
  { name: 'auth', dependencies: ['errors'] },
);
