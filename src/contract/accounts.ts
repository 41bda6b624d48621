import { Type, type Static } from 'typebox';

export const TokenKind = Type.Enum(['client', 'sidecar'], {
  description: 'client: every /v2 route of the account. sidecar: send, edit, delete messages; read channels and templates.',
});
export type TokenKind = Static<typeof TokenKind>;

/** The account as partners know it: `account_id` is its 8-digit number, which every partner route and token takes. */
export const PublicAccount = Type.Object({
  account_id: Type.Integer({ minimum: 10000000, maximum: 99999999, description: 'The 8-digit account id.' }),
  name: Type.String(),
});
export type PublicAccount = Static<typeof PublicAccount>;

export const Account = Type.Object({
  account_id: Type.String({ format: 'uuid', description: 'The account\'s UUID (partner routes take it as well as the 8-digit id).' }),
  name: Type.String(),
  account: PublicAccount,
});
export type Account = Static<typeof Account>;

export const AccountProfileFields = {
  lang: Type.Optional(Type.Enum(['en', 'es', 'pt'])),
  currency: Type.Optional(Type.Enum(['EUR', 'USD', 'KZT'])),
  country: Type.Optional(Type.Enum(['US', 'EU', 'KZ'])),
  timezone: Type.Optional(Type.Integer({ minimum: -12, maximum: 14, description: 'Hours from UTC.' })),
};

/** A partner signed in with Basic names accounts of at least 3 characters, as the service has it. */
export const CreateAccountBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }), ...AccountProfileFields },
  { additionalProperties: false },
);

const ACCOUNT_REF = '^(\\d{8}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$';
export const AccountRef = Type.String({ pattern: ACCOUNT_REF, description: 'The 8-digit account_id (or the account\'s UUID).' });
export const AccountIdParams = Type.Object({ account_id: AccountRef });
export const TokenIdParams = Type.Object({
  account_id: AccountRef,
  token_id: Type.String({ format: 'uuid' }),
});

export const CreateTokenBody = Type.Object(
  {
    kind: TokenKind,
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
);

export const TokenInfo = Type.Object({
  token_id: Type.String({ format: 'uuid' }),
  kind: TokenKind,
  name: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
  revoked_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export type TokenInfo = Static<typeof TokenInfo>;

/** The secret `token` is returned once, at creation; only its hash is stored. */
export const IssuedToken = Type.Object({
  token_id: Type.String({ format: 'uuid' }),
  kind: TokenKind,
  name: Type.Union([Type.String(), Type.Null()]),
  token: Type.String({ description: 'Shown once. Send as `Authorization: Bearer <token>`.' }),
});
export type IssuedToken = Static<typeof IssuedToken>;
