import { Type, type Static } from 'typebox';
import { chatTypes } from './channels.ts';
import { limits } from './limits.ts';

/**
 * The CRM's contacts and deals as the original service shapes them, sent as `{contacts: […]}` / `{deals: […]}`
 * (at most 100 a call) and answered in `data`. A contact owns several chat handles; a deal names its contacts.
 */
const Id = (max: number) => Type.String({ minLength: 1, maxLength: max });

export const ContactHandle = Type.Object({
  chat_type: Type.Enum([...chatTypes]),
  chat_id: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  username: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'telegram and max: without a leading @.' })),
  phone: Type.Optional(Type.String({ minLength: 1, maxLength: 32, description: 'telegram and max: digits with the country code.' })),
});
export type ContactHandle = Static<typeof ContactHandle>;

export const CrmContact = Type.Object({
  id: Id(100),
  responsible_user_id: Type.Optional(Type.Union([Id(100), Type.Null()])),
  name: Type.String({ minLength: 1, maxLength: 200 }),
  contact_data: Type.Array(ContactHandle, { description: 'The chats of the contact: each `chat_type` with `chat_id`, or (telegram, max) `username` or `phone`.' }),
  uri: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
});
export type CrmContact = Static<typeof CrmContact>;

export const CrmDeal = Type.Object({
  id: Id(100),
  responsible_user_id: Type.Optional(Type.Union([Id(100), Type.Null()])),
  name: Type.String({ minLength: 1, maxLength: 200 }),
  uri: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
  contacts: Type.Optional(Type.Array(Id(100), { description: 'Ids of the deal\'s contacts.' })),
  closed: Type.Optional(Type.Boolean({ default: false })),
});
export type CrmDeal = Static<typeof CrmDeal>;

/** As answered: every field present. */
export const StoredContact = Type.Object({
  id: Type.String(),
  responsible_user_id: Type.Union([Type.String(), Type.Null()]),
  name: Type.String(),
  contact_data: Type.Array(ContactHandle),
  uri: Type.Union([Type.String(), Type.Null()]),
});
export type StoredContact = Static<typeof StoredContact>;

export const StoredDeal = Type.Object({
  id: Type.String(),
  responsible_user_id: Type.Union([Type.String(), Type.Null()]),
  name: Type.String(),
  uri: Type.Union([Type.String(), Type.Null()]),
  contacts: Type.Array(Type.String()),
  closed: Type.Boolean(),
});
export type StoredDeal = Static<typeof StoredDeal>;

export const Stage = Type.Object({ id: Id(100), name: Type.String({ minLength: 1, maxLength: 100 }) });
export const Pipeline = Type.Object({
  id: Id(100),
  name: Type.String({ minLength: 1, maxLength: 100 }),
  stages: Type.Optional(Type.Array(Stage, { minItems: 1, description: 'When given, not empty.' })),
});
export type Pipeline = Static<typeof Pipeline>;
export const StoredPipeline = Type.Object({ id: Type.String(), name: Type.String(), stages: Type.Array(Type.Object({ id: Type.String(), name: Type.String() })) });
export type StoredPipeline = Static<typeof StoredPipeline>;
export const PipelinesCreated = Type.Object({ pipelines_created: Type.Integer(), stages_created: Type.Integer() });

export const EntityIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

export const EntityListQuery = Type.Object({
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: limits.maxListOffset, default: 0 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 100 })),
});

/** Ids to delete: a bare array, or under `ids`, `contacts`, `deals` or `data`; each an id or `{id}`. */
export const IdsBody = Type.Union([Type.Array(Type.Unknown()), Type.Record(Type.String(), Type.Unknown())]);

/** What the chat frame shows beside a chat: its contact in the CRM and the contact's open deals. */
export const ChatCrmCard = Type.Object({
  contact: Type.Union([StoredContact, Type.Null()]),
  deals: Type.Array(StoredDeal, { description: 'The contact\'s deals that are not closed.' }),
});

/** The frame's agent asks the CRM to create a contact (and, optionally, a deal) for a chat. */
export const CrmCreateRequest = Type.Object(
  {
    chat_ref: Type.String({ format: 'uuid' }),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'The name the agent suggests.' })),
  },
  { additionalProperties: false },
);
export type CrmCreateRequest = Static<typeof CrmCreateRequest>;

export const CrmCreateAsked = Type.Object({ event: Type.String(), event_id: Type.String({ format: 'uuid' }) });
