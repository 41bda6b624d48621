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
import {
  createAccount,
  issueToken,
  listAccounts,
  listTokens,
  revokeToken,
  type AccountDeps,
} from '../../../core/accounts/accounts.ts';
import { envelope } from '../../envelope.ts';
import { authErrors, withNotFound } from '../errors.ts';

/** Partner administration: child accounts and their tokens. */
export const accountRoutes: FastifyPluginAsyncTypebox<AccountDeps> = async (app, deps) => {
  const config = { access: 'partner' } as const;
  const tags = ['accounts'];

  app.post(
    '/accounts',
    { config, schema: { tags, summary: 'Create a child account', body: CreateAccountBody, response: { 201: Envelope(Account), ...authErrors } } },
    async (request, reply) => reply.code(201).send(envelope(deps.clock, await createAccount(deps, request.body))),
  );

  app.get(
    '/accounts',
    { config, schema: { tags, summary: 'List child accounts', response: { 200: Envelope(Type.Array(Account)), ...authErrors } } },
    async () => envelope(deps.clock, await listAccounts(deps)),
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
      reply.code(201).send(envelope(deps.clock, await issueToken(deps, request.params.account_id, request.body))),
  );

  app.get(
    '/accounts/:account_id/tokens',
    {
      config,
      schema: { tags, summary: 'List tokens (without secrets)', params: AccountIdParams, response: { 200: Envelope(Type.Array(TokenInfo)), ...withNotFound } },
    },
    async (request) => envelope(deps.clock, await listTokens(deps, request.params.account_id)),
  );

  app.delete(
    '/accounts/:account_id/tokens/:token_id',
    { config, schema: { tags, summary: 'Revoke a token', params: TokenIdParams, response: { 200: NullEnvelope, ...withNotFound } } },
    async (request) => {
      await revokeToken(deps, request.params.account_id, request.params.token_id);
      return envelope(deps.clock, null);
    },
  );
};
