import { Type, type Static } from 'typebox';
import { chatTypes } from './channels.ts';

/**
 * The name a chat shows, as the CRM knows the contact. A contact is keyed by `chat_type` and exactly one of
 * `chat_id`, `username`, `phone` (the last two for telegram and max only, as in a message's recipient).
 */
const keyFields = {
  chat_type: Type.Enum([...chatTypes]),
  chat_id: Type.Optional(Type.String({ minLength: 1, maxLength: 256, pattern: '\\S' })),
  username: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: '^[^@\\s]' })),
  phone: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{6,14}$' })),
};

export const ContactKey = Type.Object(keyFields, { additionalProperties: false });
export type ContactKey = Static<typeof ContactKey>;

export const Contact = Type.Object(
  { ...keyFields, name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }) },
  { additionalProperties: false },
);
export type Contact = Static<typeof Contact>;

export const UpsertContactsBody = Type.Object(
  { data: Type.Array(Contact, { minItems: 1, description: 'At most 100; an existing contact is renamed.' }) },
  { additionalProperties: false },
);
export type UpsertContactsBody = Static<typeof UpsertContactsBody>;

export const DeleteContactsBody = Type.Object(
  { data: Type.Array(ContactKey, { minItems: 1, description: 'At most 100.' }) },
  { additionalProperties: false },
);
export type DeleteContactsBody = Static<typeof DeleteContactsBody>;

export const ListContactsQuery = Type.Object(
  {
    chat_type: Type.Optional(keyFields.chat_type),
    after: Type.Optional(Type.String({ maxLength: 400, description: 'Keyset pagination: `cursor` of the last contact of the previous page.' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 100 })),
  },
  { additionalProperties: false },
);
export type ListContactsQuery = Static<typeof ListContactsQuery>;

export const ListedContact = Type.Object({
  ...keyFields,
  name: Type.String(),
  cursor: Type.String({ description: 'Pass as `after` to list the contacts that follow this one.' }),
});
export type ListedContact = Static<typeof ListedContact>;
