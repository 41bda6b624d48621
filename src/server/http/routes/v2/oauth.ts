import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AccountIdParams } from '../../../../contract/accounts.ts';
import { Envelope } from '../../../../contract/envelope.ts';
import { AccountOwnerBody, OAuthClient, RegisterClientBody, TokenRequestBody, TokenResponse } from '../../../../contract/oauth.ts';
import { listClients, registerClient } from '../../../core/auth/clients.ts';
import { setAccountOwner } from '../../../core/auth/owners.ts';
import type { AuthDeps } from '../../../core/auth/ports.ts';
import { revokeAccountGrants } from '../../../core/auth/revocation.ts';
import { grantTokens } from '../../../core/auth/token-endpoint.ts';
import { envelope } from '../../envelope.ts';
import { unstorableBodyRefusal } from '../../unstorable-text.ts';
import { partnerOf } from '../../plugins/auth.ts';
import { authErrors, withNotFound } from '../errors.ts';

/** OAuth clients send the token request form-encoded as RFC 6749 has it; CRMs of the service send JSON. Both are read. */
export function acceptForms(app: FastifyInstance): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) => {
    // `%00` decodes to U+0000, which the database cannot store: refused as in a JSON body (a lone surrogate cannot be decoded).
    const fields = Object.fromEntries(new URLSearchParams(body.toString()));
    const refusal = unstorableBodyRefusal(fields);
    if (refusal) done(refusal, undefined);
    else done(null, fields);
  });
}

/** The token endpoint, and what partners set up for OAuth: clients, account owners' sign-in, revocation. */
export const oauthRoutes: FastifyPluginAsyncTypebox<AuthDeps> = async (app, deps) => {
  const config = { access: 'partner' } as const;
  const tags = ['oauth'];
  acceptForms(app);

  app.post(
    '/oauth/token',
    {
      config,
      schema: {
        tags,
        summary: 'Issue tokens: client_credentials, token exchange, authorization_code (PKCE S256), refresh_token',
        body: TokenRequestBody,
        response: { 200: TokenResponse, ...authErrors },
      },
    },
    async (request, reply) => {
      const tokens = await grantTokens(deps, partnerOf(request), request.body);
      reply.header('Cache-Control', 'no-store');
      return { ...envelope(deps.clock, tokens), ...tokens };
    },
  );

  app.post(
    '/oauth/clients',
    { config, schema: { tags, summary: 'Register an OAuth client (redirect URIs matched exactly)', body: RegisterClientBody, response: { 201: Envelope(OAuthClient), ...authErrors } } },
    async (request, reply) => reply.code(201).send(envelope(deps.clock, await registerClient(deps, partnerOf(request), request.body))),
  );

  app.get(
    '/oauth/clients',
    { config, schema: { tags, summary: 'The partner\'s OAuth clients', response: { 200: Envelope(Type.Array(OAuthClient)), ...authErrors } } },
    async (request) => envelope(deps.clock, await listClients(deps.auth, partnerOf(request))),
  );

  app.put(
    '/accounts/:account_id/owner',
    {
      config,
      schema: {
        tags,
        summary: 'Set the account owner\'s sign-in (email and password) for the authorization page',
        params: AccountIdParams,
        body: AccountOwnerBody,
        response: { 200: Envelope(Type.Object({ account_id: Type.Integer(), email: Type.String() })), ...withNotFound },
      },
    },
    async (request) => envelope(deps.clock, await setAccountOwner(deps, partnerOf(request), request.params.account_id, request.body)),
  );

  app.delete(
    '/accounts/:account_id/grants',
    {
      config,
      schema: {
        tags,
        summary: 'Revoke every OAuth grant of the account (its access and refresh tokens)',
        params: AccountIdParams,
        response: { 200: Envelope(Type.Object({ revoked: Type.Integer() })), ...withNotFound },
      },
    },
    async (request) => envelope(deps.clock, await revokeAccountGrants(deps, partnerOf(request), request.params.account_id)),
  );
};
