import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  Account,
  AccountIdParams,
  CreateAccountBody,
  CreateTokenBody,
  IssuedToken,
  TokenIdParams,
  TokenInfo,
} from '../../../../contract/accounts.ts';
import { Envelope, NullEnvelope } from '../../../../contract/envelope.ts';
import { issueToken, listTokens, revokeToken } from '../../../core/accounts/accounts.ts';
import { createPartnerAccount, describeAccount, listPartnerAccounts, type Expansion } from '../../../core/auth/account-profiles.ts';
import { partnerAccount } from '../../../core/auth/partner-accounts.ts';
import type { AuthRepository } from '../../../core/auth/ports.ts';
import type { LiveSessions } from '../../../core/embedding/ports.ts';
import type { Clock, Store } from '../../../core/ports.ts';
import { envelope } from '../../envelope.ts';
import { partnerOf } from '../../plugins/auth.ts';
import { authErrors, withNotFound } from '../errors.ts';

export interface AccountRouteDeps {
  store: Store;
  clock: Clock;
  auth: AuthRepository;
  /** The channels' billing plan, shown as their subscriptions. */
  plan: string;
  /** Ends the live connections of frames whose sessions a revocation ended. */
  live?: LiveSessions | undefined;
}

const EXPANSIONS: readonly Expansion[] = ['billing', 'channels', 'subscriptions'];

/** Partner administration: child accounts and their tokens. A partner signed in with Basic sees only its own accounts. */
export const accountRoutes: FastifyPluginAsyncTypebox<AccountRouteDeps> = async (app, deps) => {
  const config = { access: 'partner' } as const;
  const tags = ['accounts'];
  /** The account's UUID, once the calling partner is allowed to see it. */
  const accountIdOf = async (request: Parameters<typeof partnerOf>[0], ref: string) => (await partnerAccount(deps.auth, partnerOf(request), ref)).accountId;

  app.post(
    '/accounts',
    { config, schema: { tags, summary: 'Create a child account', body: CreateAccountBody, response: { 201: Envelope(Account), ...authErrors } } },
    async (request, reply) => reply.code(201).send(envelope(deps.clock, await createPartnerAccount(deps, partnerOf(request), request.body))),
  );

  app.get(
    '/accounts',
    { config, schema: { tags, summary: 'List child accounts', response: { 200: Envelope(Type.Array(Account)), ...authErrors } } },
    async (request) => envelope(deps.clock, await listPartnerAccounts(deps.auth, partnerOf(request))),
  );

  app.get(
    '/accounts/:account_id',
    {
      config,
      schema: {
        tags,
        summary: 'Read an account (expand=billing,channels,subscriptions)',
        params: AccountIdParams,
        querystring: Type.Object({ expand: Type.Optional(Type.String({ pattern: '^[a-z,]*$' })) }),
        response: { 200: Envelope(Type.Object({ account: Type.Record(Type.String(), Type.Unknown()) })), ...withNotFound },
      },
    },
    async (request) => {
      const expand = EXPANSIONS.filter((e) => (request.query.expand ?? '').split(',').includes(e));
      return envelope(deps.clock, await describeAccount(deps, partnerOf(request), request.params.account_id, expand));
    },
  );

  app.post(
    '/accounts/:account_id/tokens',
    {
      config,
      schema: {
        tags,
        summary: 'Issue a client token or sidecar key (the secret is shown once)',
        params: AccountIdParams,
        body: CreateTokenBody,
        response: { 201: Envelope(IssuedToken), ...withNotFound },
      },
    },
    async (request, reply) =>
      reply.code(201).send(envelope(deps.clock, await issueToken(deps, await accountIdOf(request, request.params.account_id), request.body))),
  );

  app.get(
    '/accounts/:account_id/tokens',
    {
      config,
      schema: { tags, summary: 'List tokens (without secrets)', params: AccountIdParams, response: { 200: Envelope(Type.Array(TokenInfo)), ...withNotFound } },
    },
    async (request) => envelope(deps.clock, await listTokens(deps, await accountIdOf(request, request.params.account_id))),
  );

  app.delete(
    '/accounts/:account_id/tokens/:token_id',
    { config, schema: { tags, summary: 'Revoke a token', params: TokenIdParams, response: { 200: NullEnvelope, ...withNotFound } } },
    async (request) => {
      await revokeToken(deps, await accountIdOf(request, request.params.account_id), request.params.token_id);
      return envelope(deps.clock, null);
    },
  );
};
