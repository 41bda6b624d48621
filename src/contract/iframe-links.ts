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

/** The chat the frame opens first, as the session carries it. */
export const ActiveChat = Type.Object(
  {
    channel_id: Type.Optional(Type.String({ format: 'uuid' })),
    chat_type: ChatType,
    chat_id: Text(256, 'Identifier of the chat to open first.'),
    username: Type.Optional(Text(64, 'telegram and max only: user name of the chat, without a leading @.')),
  },
  { additionalProperties: false },
);
export type ActiveChat = Static<typeof ActiveChat>;

/** The chat to open first, as a link request names it: by `chat_id`, or (telegram and max) by `username`. */
export const ActiveChatRequest = Type.Object(
  {
    channel_id: Type.Optional(Type.String({ format: 'uuid' })),
    chat_type: ChatType,
    chat_id: Type.Optional(Text(256, 'Identifier of the chat to open first.')),
    username: Type.Optional(Text(64, 'telegram and max only: user name, without a leading @; used when chat_id is not known.')),
  },
  { additionalProperties: false },
);
export type ActiveChatRequest = Static<typeof ActiveChatRequest>;

/** Which bridge messages the frame posts to its host page. */
export const UseEvents = Type.Object(
  {
    messages: Type.Optional(Type.Boolean({ description: 'Chat events: chat opened, unanswered count changed.' })),
    deals: Type.Optional(Type.Boolean({ description: 'CRM events: a contact or deal the agent asks the CRM to create.' })),
  },
  { additionalProperties: false },
);
export type UseEvents = Static<typeof UseEvents>;

/** What a session posts: both kinds while the link named no `use_events`; otherwise only those set true. */
export const SessionEvents = Type.Object({ messages: Type.Boolean(), deals: Type.Boolean() });
export type SessionEvents = Static<typeof SessionEvents>;

const ClientType = Type.String({ minLength: 1, maxLength: 64, description: 'What the CRM calls its client (kept on the session, shown to the frame).' });

export const EmbedOptions = Type.Object(
  {
    lang: Type.Optional(Type.String({ pattern: '^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$', description: 'Language of the frame: en, ru, es or pt (a regional tag such as pt-BR picks its language; any other falls back to en).' })),
    theme: Type.Optional(Type.Enum(['light', 'dark', 'auto'])),
  },
  { additionalProperties: false },
);
export type EmbedOptions = Static<typeof EmbedOptions>;

export const CreateChatsLinkBody = Type.Object(
  {
    user_id: Type.Optional(Text(128, 'Id of the user in the CRM; shown as the author of the messages the user sends. Required unless `user` is given.')),
    author_name: Type.Optional(Text(200, 'Name of the user, shown as the author of the messages the user sends; stored as the CRM user.')),
    user: Type.Optional(EmbedUser),
    scope: Type.Enum(['global', 'card'], { description: 'global: every chat of the account. card: only the chats listed in `chats`.' }),
    chats: Type.Optional(
      Type.Array(ChatRef, { minItems: 1, maxItems: maxCardChats, description: 'Required for card (unless contact_id is given), refused for global.' }),
    ),
    contact_id: Type.Optional(Text(100, 'Card only: the chats of this CRM contact (its contact_data) are the card\'s, beside those in chats.')),
    active_chat: Type.Optional(ActiveChatRequest),
    use_events: Type.Optional(UseEvents),
    client_type: Type.Optional(ClientType),
    options: Type.Optional(EmbedOptions),
  },
  { additionalProperties: false },
);
export type CreateChatsLinkBody = Static<typeof CreateChatsLinkBody>;

/** The connect frame's options: where it opens (a transport's connection, or one channel) and how it looks. */
export const ChannelsLinkOptions = Type.Object(
  {
    ...EmbedOptions.properties,
    transport: Type.Optional(TransportSchema),
    channel_id: Type.Optional(Type.String({ format: 'uuid', description: 'Open on this channel (reconnect it).' })),
  },
  { additionalProperties: false },
);

export const CreateChannelsLinkBody = Type.Object(
  {
    user_id: Type.Optional(Text(128, 'Id of the CRM user opening the frame.')),
    author_name: Type.Optional(Text(200, 'Name of that user.')),
    user: Type.Optional(EmbedUser),
    transport: Type.Optional(TransportSchema),
    channel_id: Type.Optional(Type.String({ format: 'uuid', description: 'Reconnect this channel.' })),
    client_type: Type.Optional(ClientType),
    options: Type.Optional(ChannelsLinkOptions),
  },
  { additionalProperties: false },
);
export type CreateChannelsLinkBody = Static<typeof CreateChannelsLinkBody>;

export const IframeLink = Type.Object({
  link: Type.String({ description: 'The frame\'s address (the same as `url`).' }),
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
