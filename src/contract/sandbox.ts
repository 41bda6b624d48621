import { Type, type Static } from 'typebox';
import { chatTypes, tiers } from './channels.ts';
import { MAX_ATTACHMENT_SIZE } from './messages.ts';

/** The sandbox API: the simulated messenger network's other side (docs/decisions.md, "The sandbox"). */

const Phone = Type.String({ pattern: '^[1-9][0-9]{6,14}$', description: 'International number, digits only, no plus.' });

export const ScanBody = Type.Object(
  { phone: Type.Optional(Phone) },
  {
    additionalProperties: false,
    description: 'Without `phone`: the phone the pairing code was issued for, else the channel’s own phone, else a stable sandbox number.',
  },
);
export type ScanBody = Static<typeof ScanBody>;

export const PhoneParams = Type.Object({ phone: Phone });

export const TwoFactorPasswordBody = Type.Object(
  { password: Type.Union([Type.String({ minLength: 1, maxLength: 256 }), Type.Null()], { description: 'null removes the password.' }) },
  { additionalProperties: false },
);

export const SandboxPhone = Type.Object({ phone: Type.String(), two_factor: Type.Boolean() });

export const TierBody = Type.Object({ tier: Type.Enum([...tiers]) }, { additionalProperties: false });

export const PaymentBody = Type.Object(
  { paid: Type.Boolean({ description: 'false: the channel becomes disabled / not_enough_money; true: active again.' }) },
  { additionalProperties: false },
);

export const AuthorizeQuery = Type.Object({ state: Type.String({ minLength: 1, maxLength: 200 }) });

const Counterpart = {
  chat_type: Type.Enum([...chatTypes]),
  chat_id: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  username: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'telegram and max: the customer’s user name.' })),
  phone: Type.Optional(Phone),
};

export const InboundBody = Type.Object(
  {
    ...Counterpart,
    name: Type.Optional(Type.String({ maxLength: 256 })),
    text: Type.Optional(Type.String({ minLength: 1, maxLength: 65_536 })),
    reply_to: Type.Optional(Type.String({ format: 'uuid', description: 'The `message_id` of a message of this channel the customer answers (quotes).' })),
    attachment: Type.Optional(
      Type.Object(
        { url: Type.String({ format: 'uri' }), name: Type.Optional(Type.String()), mimetype: Type.Optional(Type.String()), size: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_ATTACHMENT_SIZE })) },
        { additionalProperties: false },
      ),
    ),
  },
  {
    additionalProperties: false,
    description:
      'One of chat_id, username, phone; text, an attachment, or both: a file with its caption, recorded as the live drivers record one (the file, then its words as a message of their own).',
  },
);
export type InboundBody = Static<typeof InboundBody>;

export const InboundResult = Type.Object({ message_id: Type.String({ format: 'uuid' }), chat_id: Type.String() });

export const CustomerBody = Type.Object(
  {
    ...Counterpart,
    state: Type.Enum(['ok', 'blocked', 'missing'], { description: 'blocked: the customer blocked the channel; missing: no such account or number.' }),
  },
  { additionalProperties: false },
);
export type CustomerBody = Static<typeof CustomerBody>;

export const CustomerEditBody = Type.Object(
  { text: Type.String({ minLength: 1, maxLength: 4096, description: 'The words the message has now.' }) },
  { additionalProperties: false },
);
export type CustomerEditBody = Static<typeof CustomerEditBody>;

export const SandboxChatParams = Type.Object({
  channel_id: Type.String({ format: 'uuid' }),
  chat_type: Type.Enum([...chatTypes]),
  chat_id: Type.String({ minLength: 1, maxLength: 256 }),
});

export const MessageStatusBody = Type.Object(
  {
    status: Type.Enum(['delivered', 'read', 'failed']),
    reason: Type.Optional(Type.String({ description: 'A failure reason of the interface; with status failed.' })),
  },
  { additionalProperties: false },
);

export const MessageStatusResult = Type.Object({
  message_id: Type.String(),
  status: Type.String(),
  reason: Type.Union([Type.String(), Type.Null()]),
  changed: Type.Boolean({ description: 'false when the report would move the status back and was ignored.' }),
});

const MemberStatus = Type.Enum(['in_group', 'invited', 'unknown', 'deleted', 'not_exists']);

export const CreateGroupBody = Type.Object(
  {
    chat_type: Type.Enum(['whatsgroup', 'telegroup', 'maxgroup']),
    name: Type.String({ minLength: 1, maxLength: 256 }),
    members: Type.Optional(Type.Array(Type.Object({ name: Type.String({ minLength: 1, maxLength: 256 }) }, { additionalProperties: false }), { maxItems: 100 })),
  },
  { additionalProperties: false },
);
export type CreateGroupBody = Static<typeof CreateGroupBody>;

export const GroupParams = Type.Object({ channel_id: Type.String({ format: 'uuid' }), group_id: Type.String({ minLength: 1, maxLength: 256 }) });

export const GroupMembersBody = Type.Object(
  {
    members: Type.Array(
      Type.Object(
        {
          group_member_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'Absent for a new member.' })),
          name: Type.Optional(Type.String({ maxLength: 256 })),
          status: MemberStatus,
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 100 },
    ),
  },
  { additionalProperties: false },
);
export type GroupMembersBody = Static<typeof GroupMembersBody>;

export const UpdateGroupBody = Type.Object(
  { name: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })), avatar_url: Type.Optional(Type.Union([Type.String({ format: 'uri' }), Type.Null()])) },
  { additionalProperties: false, minProperties: 1 },
);

export const Group = Type.Object({
  group_id: Type.String(),
  chat_type: Type.String(),
  name: Type.Union([Type.String(), Type.Null()]),
  avatar_url: Type.Union([Type.String(), Type.Null()]),
  members: Type.Array(
    Type.Object({ group_member_id: Type.String(), name: Type.Union([Type.String(), Type.Null()]), avatar_url: Type.Union([Type.String(), Type.Null()]), status: MemberStatus }),
  ),
});
