import { Type, type Static } from 'typebox';

/**
 * The account's rights settings, as the original service shapes them. A user's role on a channel decides whether
 * the chat frame shows that channel's chats to the user: `seller` works them (and may get new customers),
 * `manager` supervises them, `auditor` reads them. While no role is set at all, every user sees every chat.
 */
export const userRoles = ['seller', 'manager', 'auditor'] as const;
export type UserRole = (typeof userRoles)[number];

export const UserRoleEntry = Type.Object(
  {
    channel_id: Type.String({ format: 'uuid' }),
    user_id: Type.String({ minLength: 1, maxLength: 128 }),
    role: Type.Union([Type.Enum([...userRoles]), Type.Literal(''), Type.Null()], { description: 'Empty (or null) removes the user\'s access to the channel.' }),
    allow_get_new_clients: Type.Optional(Type.Boolean({ description: 'New customers of the channel may be assigned to this user. Default false.' })),
  },
);
export type UserRoleEntry = Static<typeof UserRoleEntry>;

export const Settings = Type.Object({
  user_roles: Type.Array(
    Type.Object({
      channel_id: Type.String(),
      user_id: Type.String(),
      role: Type.Enum([...userRoles]),
      allow_get_new_clients: Type.Boolean(),
    }),
  ),
  hide_phone_numbers_for_user_ids: Type.Array(Type.String(), { description: 'These users see no phone numbers in the frames.' }),
  push_input_output_message_events_for_managers: Type.Boolean({ description: 'Kept for the CRM; the gateway sends message events to every subscription either way.' }),
});
export type Settings = Static<typeof Settings>;

export const PatchSettingsBody = Type.Object(
  {
    user_roles: Type.Optional(Type.Array(UserRoleEntry, { description: 'Replaces every role of the account: read, change, write back.' })),
    hide_phone_numbers_for_user_ids: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 128 }), { maxItems: 10_000 })),
    push_input_output_message_events_for_managers: Type.Optional(Type.Boolean()),
  },
);
export type PatchSettingsBody = Static<typeof PatchSettingsBody>;

export const UnansweredCounter = Type.Object({
  counter: Type.Integer({ minimum: 0, description: 'Chats the user can see that wait for an answer.' }),
  type: Type.Enum(['red', 'grey'], { description: 'red: a customer assigned to the user waits (or, with no roles set, any does); grey: only others\' chats wait, or none.' }),
});
export type UnansweredCounter = Static<typeof UnansweredCounter>;

export const ClearedUnanswered = Type.Object({ account_id: Type.String(), cleared: Type.Literal(true) });
