import { Type, type Static } from 'typebox';

/** A user of the CRM: the author the chat frame shows for messages the user sent. */
export const CrmUser = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 128, pattern: '\\S', description: 'Id of the user in the CRM (`crm_user_id` of messages).' }),
    name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
  },
  { additionalProperties: false },
);
export type CrmUser = Static<typeof CrmUser>;

export const UpsertUsersBody = Type.Object(
  { data: Type.Array(CrmUser, { minItems: 1, description: 'At most 100; an existing id is renamed.' }) },
  { additionalProperties: false },
);
export type UpsertUsersBody = Static<typeof UpsertUsersBody>;

export const DeleteUsersBody = Type.Object(
  { data: Type.Array(Type.Object({ id: CrmUser.properties.id }, { additionalProperties: false }), { minItems: 1, description: 'At most 100.' }) },
  { additionalProperties: false },
);
export type DeleteUsersBody = Static<typeof DeleteUsersBody>;

export const ListUsersQuery = Type.Object(
  {
    id: Type.Optional(Type.Array(CrmUser.properties.id, { description: 'Only these users (repeat the parameter; at most 100).' })),
    after: Type.Optional(Type.String({ maxLength: 128, description: 'Keyset pagination: the last id of the previous page.' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 100 })),
  },
  { additionalProperties: false },
);
export type ListUsersQuery = Static<typeof ListUsersQuery>;
