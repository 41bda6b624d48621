import { Type, type Static } from 'typebox';

/**
 * The v3 face's webhooks: one address per account with four switches (`PATCH`/`GET /v3/webhooks`), and the bodies
 * POSTed to it, keyed by type (`messages`, `statuses`, `channelsUpdates`, `templateStatus`, `createContact`,
 * `createDeal`, or the `{test: true}` of a PATCH). Written from the public API's documentation and what live clients
 * send and read; the receiver in the tests validates every body it gets against these schemas.
 */

/** A switch as clients send it: a JSON boolean, or the documentation's quoted `"true"`/`"false"`. */
const Switch = Type.Union([Type.Boolean(), Type.Enum(['true', 'false'])]);

export const V3WebhookSwitches = Type.Object(
  {
    messagesAndStatuses: Type.Optional(Switch),
    contactsAndDealsCreation: Type.Optional(Switch),
    channelsUpdates: Type.Optional(Switch),
    templateStatus: Type.Optional(Switch),
    // The other spellings of the template switch seen in the documentation and in clients.
    tepmplateStatus: Type.Optional(Switch),
    templateStatuses: Type.Optional(Switch),
    wabaTemplatesStatus: Type.Optional(Switch),
  },
  { description: 'Absent switches are off. `templateStatus` may also be spelled tepmplateStatus, templateStatuses or wabaTemplatesStatus.' },
);

export const V3WebhooksPatch = Type.Object(
  {
    webhooksUri: Type.Optional(
      Type.Union([Type.String({ maxLength: 2048 }), Type.Null()], {
        description: 'The receiving address, at most 200 characters, query string kept; an empty string or null removes it, absent keeps it.',
      }),
    ),
    subscriptions: Type.Optional(V3WebhookSwitches),
    crmKey: Type.Optional(
      Type.Union([Type.String({ maxLength: 512 }), Type.Null()], {
        description: 'Sent back as `Authorization: Bearer <crmKey>` on every POST; null removes it, absent keeps it.',
      }),
    ),
  },
  { description: 'The account’s v3 webhook address and switches.' },
);
export type V3WebhooksPatch = Static<typeof V3WebhooksPatch>;

export const V3WebhooksState = Type.Object({
  webhooksUri: Type.Union([Type.String(), Type.Null()]),
  subscriptions: Type.Object({
    messagesAndStatuses: Type.Boolean(),
    contactsAndDealsCreation: Type.Boolean(),
    channelsUpdates: Type.Boolean(),
    templateStatus: Type.Boolean(),
    wabaTemplatesStatus: Type.Boolean({ description: 'The same switch as templateStatus, under the name the live service reports.' }),
  }),
});
export type V3WebhooksState = Static<typeof V3WebhooksState>;

const Iso = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$' });
const Uuid = Type.String({ pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' });

export const v3ChatTypes = ['whatsapp', 'whatsgroup', 'viber', 'instagram', 'telegram', 'telegroup', 'vk', 'avito', 'max', 'maxgroup'] as const;
export const v3MessageTypes = ['text', 'image', 'audio', 'video', 'document', 'vcard', 'geo', 'wapi_template', 'unsupported', 'missing_call', 'unknown', 'system'] as const;

const V3Error = Type.Object({
  error: Type.String({ pattern: '^[A-Z0-9_]+$', description: 'UPPER_SNAKE code, e.g. BAD_CONTACT, 24_HOURS_EXCEEDED.' }),
  description: Type.Optional(Type.String()),
  data: Type.Optional(Type.Unknown()),
});

export const V3WebhookMessage = Type.Object({
  messageId: Uuid,
  channelId: Uuid,
  chatType: Type.Enum([...v3ChatTypes]),
  chatId: Type.String({ minLength: 1 }),
  dateTime: Iso,
  type: Type.Enum([...v3MessageTypes]),
  isEcho: Type.Boolean({ description: 'false: from the customer; true: outgoing.' }),
  contact: Type.Object({
    name: Type.String(),
    avatarUri: Type.Optional(Type.String()),
    username: Type.Optional(Type.String()),
    phone: Type.Optional(Type.String()),
  }),
  text: Type.Optional(Type.String()),
  contentUri: Type.Optional(Type.String()),
  status: Type.Enum(['sent', 'delivered', 'read', 'error', 'inbound']),
  error: Type.Optional(V3Error),
  authorName: Type.Optional(Type.String()),
  authorId: Type.Optional(Type.String()),
  quotedMessage: Type.Optional(Type.Object({ messageId: Uuid })),
  sentFromApp: Type.Optional(Type.Boolean()),
  isEdited: Type.Optional(Type.Boolean()),
  isDeleted: Type.Optional(Type.Boolean()),
  oldInfo: Type.Optional(
    Type.Object({ oldText: Type.Optional(Type.String()), oldContentUri: Type.Optional(Type.String()), oldAuthorId: Type.Optional(Type.String()), oldAuthorName: Type.Optional(Type.String()) }),
  ),
});
export type V3WebhookMessage = Static<typeof V3WebhookMessage>;

export const V3WebhookStatus = Type.Object({
  messageId: Uuid,
  timestamp: Iso,
  status: Type.Enum(['sent', 'delivered', 'read', 'error', 'edited']),
  error: Type.Optional(V3Error),
});
export type V3WebhookStatus = Static<typeof V3WebhookStatus>;

export const V3ChannelUpdate = Type.Object({
  channelId: Uuid,
  state: Type.Enum(['active', 'disabled', 'qr', 'phoneUnavailable', 'openElsewhere', 'notEnoughMoney', 'unauthorized']),
  timestamp: Type.Integer({ description: 'Milliseconds.' }),
  qr: Type.Optional(Type.String({ pattern: '^data:image/png;base64,' })),
  qridle: Type.Optional(Type.Boolean()),
  tier: Type.Optional(Type.String({ pattern: '^TIER_' })),
});
export type V3ChannelUpdate = Static<typeof V3ChannelUpdate>;

export const V3TemplateStatus = Type.Object({
  templateGuid: Uuid,
  name: Type.String(),
  status: Type.Enum(['approved', 'pending', 'rejected', 'paused', 'disabled']),
});
export type V3TemplateStatus = Static<typeof V3TemplateStatus>;

const Source = Type.Enum(['auto', 'byUser'], { description: '`auto`: a new customer wrote; `byUser`: an agent asked in the chat frame.' });

export const V3CreateContact = Type.Object({
  responsibleUserId: Type.String(),
  name: Type.String(),
  contactData: Type.Array(
    Type.Object({ chatType: Type.Enum([...v3ChatTypes]), chatId: Type.String(), username: Type.Optional(Type.String()), phone: Type.Optional(Type.String()) }),
    { minItems: 1 },
  ),
  source: Source,
});
export type V3CreateContact = Static<typeof V3CreateContact>;

export const V3CreateDeal = Type.Object({
  responsibleUserId: Type.String(),
  contacts: Type.Array(Type.String(), { minItems: 1 }),
  source: Source,
});
export type V3CreateDeal = Static<typeof V3CreateDeal>;

/** Every body the v3 address receives. `messages` and `statuses` may come together; the others alone. */
export const V3WebhookBody = Type.Union([
  Type.Object({ test: Type.Literal(true) }, { additionalProperties: false }),
  Type.Object(
    { messages: Type.Optional(Type.Array(V3WebhookMessage, { minItems: 1 })), statuses: Type.Optional(Type.Array(V3WebhookStatus, { minItems: 1 })) },
    { additionalProperties: false, minProperties: 1 },
  ),
  Type.Object({ channelsUpdates: Type.Array(V3ChannelUpdate, { minItems: 1 }) }, { additionalProperties: false }),
  Type.Object({ templateStatus: V3TemplateStatus }, { additionalProperties: false }),
  Type.Object({ createContact: V3CreateContact }, { additionalProperties: false }),
  Type.Object({ createDeal: V3CreateDeal }, { additionalProperties: false }),
]);
export type V3WebhookBody = Static<typeof V3WebhookBody>;
