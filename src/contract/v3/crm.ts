import { Type, type Static } from 'typebox';

/** The furthest a page may start, as on /v2 (a PostgreSQL integer): past it a list answers 400, not 500. */
const MAX_OFFSET = 2_147_483_647;

/** The v3 face's CRM entities: bare camelCase objects, sent as bare arrays of at most 100. */

export const V3User = Type.Object({ id: Type.String(), name: Type.String(), phone: Type.Optional(Type.String()) });
export type V3User = Static<typeof V3User>;

export const V3ContactData = Type.Object({
  chatType: Type.String(),
  chatId: Type.Optional(Type.String()),
  username: Type.Optional(Type.String({ description: 'Telegram (and MAX): without @.' })),
  phone: Type.Optional(Type.String({ description: 'Telegram and MAX: digits with the country code.' })),
});

export const V3Contact = Type.Object({
  id: Type.String(),
  responsibleUserId: Type.Union([Type.String(), Type.Null()]),
  name: Type.String(),
  contactData: Type.Array(V3ContactData),
  uri: Type.Optional(Type.String()),
});
export type V3Contact = Static<typeof V3Contact>;

export const V3Deal = Type.Object({
  id: Type.String(),
  responsibleUserId: Type.Union([Type.String(), Type.Null()]),
  name: Type.String(),
  uri: Type.Optional(Type.String()),
  contacts: Type.Array(Type.String()),
  closed: Type.Boolean(),
});
export type V3Deal = Static<typeof V3Deal>;

export const V3Pipeline = Type.Object({
  id: Type.String(),
  name: Type.String(),
  stages: Type.Array(Type.Object({ id: Type.String(), name: Type.String() })),
});

/** A page of an offset-paged list: the account's total, and up to 100 items from `offset`. */
export const V3Page = <T extends Parameters<typeof Type.Array>[0]>(item: T) =>
  Type.Object({ count: Type.Integer({ description: 'How many the account has in all.' }), data: Type.Array(item) });

export const V3OffsetQuery = Type.Object({ offset: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_OFFSET, default: 0 })) });
export const V3EntityIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) });

/** Write bodies are checked item by item by the use-cases (naming each bad item); here, only that they are arrays. */
export const V3Items = Type.Array(Type.Unknown(), { description: 'A bare array of at most 100 items (more: 403 TOO_MANY_ENTITIES).' });
export const V3Ids = Type.Array(Type.Union([Type.String(), Type.Number()]), { description: 'A bare array of at most 100 ids.' });
/** What a deletion answers: the ids that were not known. */
export const V3NotFoundIds = Type.Array(Type.String(), { description: 'The ids that were not known (nothing was deleted for them).' });

/** A WABA template as `GET /v3/templates/whatsapp` lists it (one per channel it is bound to). */
export const V3Template = Type.Object({
  templateGuid: Type.String({ format: 'uuid', description: 'Send it as `templateId`.' }),
  title: Type.String(),
  name: Type.String(),
  channels: Type.Array(Type.String()),
  category: Type.String(),
  language: Type.String(),
  status: Type.String({ description: 'Lower case: approved, pending, rejected, paused, disabled.' }),
  rejected_reason: Type.String(),
  namespace: Type.String(),
  waba: Type.Object({ wabaId: Type.String(), wabaName: Type.String() }),
  components: Type.Array(Type.Unknown()),
  templateCode: Type.String({ description: 'The template as a send\'s `text`: `@template: <guid> { [[headerVar1]]; [[bodyVar1]] }`.' }),
});
export const V3TemplatesQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_OFFSET, default: 0 })),
});

export const V3Unanswered = Type.Object({
  counterV2: Type.Integer({ minimum: 0, description: 'Chats the user can see that wait for an answer.' }),
  type: Type.Union([Type.Enum(['red', 'grey']), Type.Null()], { description: 'red: one of them is the user\'s customer; grey: only others\'; null: none waits.' }),
  lastMsgDateTime: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'The latest message among the waiting chats.' }),
});
