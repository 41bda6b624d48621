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

/**
 * A user as the original service shapes it: sent as `{users: […]}`. Bad data answers 400 INVALID_USER_DATA;
 * a phone that is not a valid international number is dropped, not refused.
 */
export const ServiceUser = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 64, description: 'Id of the user in the CRM (`crm_user_id` of messages).' }),
    name: Type.String({ minLength: 1, maxLength: 150 }),
    phone: Type.Optional(Type.String({ description: 'International number; `+`, spaces and dashes are ignored. One user per phone.' })),
  },
);
export type ServiceUser = Static<typeof ServiceUser>;

export const ServiceUsersBody = Type.Object(
  {
    users: Type.Optional(Type.Array(Type.Unknown(), { description: 'At most 100 ServiceUser; upserted by id.' })),
    data: Type.Optional(Type.Array(Type.Unknown(), { description: 'The earlier shape: `[{id, name}]`, answered with the users.' })),
  },
  { description: 'Either `users` (answered `{processed}`) or `data` (answered with the users).' },
);
export type ServiceUsersBody = Static<typeof ServiceUsersBody>;

export const UsersProcessed = Type.Object({ processed: Type.Integer({ description: 'How many users were created or changed.' }) });

/** A listed user: `phone` when the user has one. */
export const ListedUser = Type.Object({ id: Type.String(), name: Type.String(), phone: Type.Optional(Type.String()) });
export type ListedUser = Static<typeof ListedUser>;

export const UserIdParams = Type.Object({ user_id: Type.String({ minLength: 1, maxLength: 128 }) });

/** Ids to delete: `{users: […]}`, `{data: […]}` or a bare array, each an id or `{id}`. */
export const DeleteUsersAnyBody = Type.Union([
  Type.Object({ users: Type.Optional(Type.Array(Type.Unknown())), data: Type.Optional(Type.Array(Type.Unknown())), ids: Type.Optional(Type.Array(Type.Unknown())) }),
  Type.Array(Type.Unknown()),
]);
