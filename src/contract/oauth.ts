import { Type } from 'typebox';
import { Meta } from './envelope.ts';

/**
 * `POST /v2/oauth/token`. Each grant type reads its own object (`client_credentials_data`, `token_exchange_data`,
 * `authorize_code_data`, `refresh_token_data`) or the same fields flat at the top level; the endpoint checks them and
 * answers OAuth 2.0's error names, so the schema only asks for an object.
 */
export const TokenRequestBody = Type.Object(
  { grant_type: Type.Optional(Type.String({ description: 'client_credentials | urn:ietf:params:oauth:grant-type:token-exchange | authorization_code | refresh_token' })) },
  { additionalProperties: true },
);

const tokenFields = {
  access_token: Type.String(),
  refresh_token: Type.Optional(Type.String({ description: 'Absent for the machine token of client_credentials.' })),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer({ description: 'Seconds the access token lives.' }),
  scope: Type.String({ description: 'Granted scopes, comma-separated (transport, crm).' }),
};

/** The tokens in the envelope's `data`, and again at the top level, where some clients read them. */
export const TokenResponse = Type.Object({ data: Type.Object(tokenFields), meta: Meta, ...tokenFields });

export const RegisterClientBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
    redirect_uris: Type.Array(Type.String({ minLength: 1, maxLength: 2000 }), { minItems: 1, maxItems: 20 }),
  },
  { additionalProperties: false },
);

export const OAuthClient = Type.Object({
  client_id: Type.String(),
  name: Type.String(),
  redirect_uris: Type.Array(Type.String()),
  created_at: Type.String({ format: 'date-time' }),
});

export const AccountOwnerBody = Type.Object(
  { email: Type.String({ minLength: 3, maxLength: 320 }), password: Type.String({ minLength: 10, maxLength: 256 }) },
  { additionalProperties: false },
);

