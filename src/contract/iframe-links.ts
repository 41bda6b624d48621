import { Type, type Static } from 'typebox';
import { chatTypes, TransportSchema } from './channels.ts';

/** How many chats a card link may name. */
export const maxCardChats = 100;

const ChatType = Type.Enum([...chatTypes]);
const Text = (max: number, description: string) => Type.String({ minLength: 1, maxLength: max, pattern: '\\S', description });

export const EmbedUser = Type.Object(
  {
    id: Text(128, 'Id of the user in the CRM; shown as the author of the messages the user sends.'),
    name: Type.Optional(Text(200, 'Name of the user as the CRM knows it; also stored as the CRM user.')),
  },
  { additionalProperties: false },
);
export type EmbedUser = Static<typeof EmbedUser>;

/** One chat of a card: by `chat_id`, or (telegram and max) by `username` or `phone`. Exactly one of them. */
export const ChatRef = Type.Object(
  {
    chat_type: ChatType,
    chat_id: Type.Optional(Text(256, 'Identifier of the chat in the messenger, as in recipient.chat_id.')),
    username: Type.Optional(Text(64, 'telegram and max only: user name without a leading @.')),
    phone: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{6,14}$', description: 'telegram and max only: digits with country code.' })),
    contact_name: Type.Optional(Text(200, 'Name of the contact in the CRM; stored as the contact of the chat.')),
  },
  { additionalProperties: false },
);
export type ChatRef = Static<typeof ChatRef>;

export const ActiveChat = Type.Object(
  {
    channel_id: Type.Optional(Type.String({ format: 'uuid' })),
    chat_type: ChatType,
    chat_id: Text(256, 'Identifier of the chat to open first.'),
  },
  { additionalProperties: false },
);
export type ActiveChat = Static<typeof ActiveChat>;

export const EmbedOptions = Type.Object(
  {
    lang: Type.Optional(Type.String({ pattern: '^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$', description: 'Language of the frame, e.g. en or ru.' })),
    theme: Type.Optional(Type.Enum(['light', 'dark', 'auto'])),
  },
  { additionalProperties: false },
);
export type EmbedOptions = Static<typeof EmbedOptions>;

export const CreateChatsLinkBody = Type.Object(
  {
    user: EmbedUser,
    scope: Type.Enum(['global', 'card'], { description: 'global: every chat of the account. card: only the chats listed in `chats`.' }),
    chats: Type.Optional(
      Type.Array(ChatRef, { minItems: 1, maxItems: maxCardChats, description: 'Required for card, refused for global.' }),
    ),
    active_chat: Type.Optional(ActiveChat),
    options: Type.Optional(EmbedOptions),
  },
  { additionalProperties: false },
);
export type CreateChatsLinkBody = Static<typeof CreateChatsLinkBody>;

export const CreateChannelsLinkBody = Type.Object(
  {
    user: Type.Optional(EmbedUser),
    transport: Type.Optional(TransportSchema),
    channel_id: Type.Optional(Type.String({ format: 'uuid', description: 'Reconnect this channel.' })),
    options: Type.Optional(EmbedOptions),
  },
  { additionalProperties: false },
);
export type CreateChannelsLinkBody = Static<typeof CreateChannelsLinkBody>;

export const IframeLink = Type.Object({
  url: Type.String({ description: 'Open it in an iframe of an allowed origin; it is exchanged once for a session.' }),
  expires_at: Type.String({ format: 'date-time', description: 'The link cannot be opened after this time.' }),
});
export type IframeLink = Static<typeof IframeLink>;

/** Pages allowed to frame the widget: exact origins, `scheme://host[:port]`. */
export const EmbeddingOrigins = Type.Object(
  {
    origins: Type.Array(
      Type.String({ minLength: 1, maxLength: 300, description: 'https://host[:port]; http only for localhost and 127.0.0.1.' }),
      { description: 'Sent as the frame page\'s Content-Security-Policy frame-ancestors. Empty: the frame can be embedded nowhere.' },
    ),
  },
  { additionalProperties: false },
);
export type EmbeddingOrigins = Static<typeof EmbeddingOrigins>;

export const RevokeSessionsQuery = Type.Object(
  { user_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'Only this CRM user\'s sessions; all sessions when absent.' })) },
  { additionalProperties: false },
);

export const RevokedSessions = Type.Object({ revoked: Type.Integer({ description: 'How many open sessions were ended.' }) });
