import { Type, type Static } from 'typebox';

export const TokenKind = Type.Enum(['client', 'sidecar'], {
  description: 'client: every /v2 route of the account. sidecar: send, edit, delete messages; read channels and templates.',
});
export type TokenKind = Static<typeof TokenKind>;

export const Account = Type.Object({
  account_id: Type.String({ format: 'uuid' }),
  name: Type.String(),
});
export type Account = Static<typeof Account>;

export const CreateAccountBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }) },
  { additionalProperties: false },
);

export const AccountIdParams = Type.Object({ account_id: Type.String({ format: 'uuid' }) });
export const TokenIdParams = Type.Object({
  account_id: Type.String({ format: 'uuid' }),
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
