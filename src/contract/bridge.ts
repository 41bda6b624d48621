import { Type, type Static } from 'typebox';
import { chatTypes, TransportSchema } from './channels.ts';
import { bridgeProtocol } from './bridge-protocol.ts';
import { EmbedOptions } from './iframe-links.ts';

/**
 * The host bridge: `postMessage` between the widget frame and the CRM page that embeds it. The frame posts
 * only to the exact origin of its host (one of the account's allowed origins, never `*`) and drops every
 * message whose origin is not that one, or whose shape is not one of these.
 */
export { bridgeProtocol };

const ChatType = Type.Enum([...chatTypes]);
const Id = Type.String({ minLength: 1, maxLength: 256 });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

const message = <K extends string, P extends Parameters<typeof Type.Object>[0]>(type: K, payload: P) =>
  Type.Object(
    { protocol: Type.Literal(bridgeProtocol), type: Type.Literal(type), payload: Type.Object(payload, { additionalProperties: false }) },
    { additionalProperties: false },
  );

/** Frame → host. */
export const FrameReady = message('ready', { kind: Type.Enum(['chats', 'channels']), user_id: Nullable(Id) });
export const ChatOpened = message('chat_opened', { channel_id: Nullable(Id), chat_type: ChatType, chat_id: Id });
export const UnansweredCountChanged = message('unanswered_count_changed', { total: Type.Integer({ minimum: 0 }) });
/** This agent's unread messages (those come in while they were not looking at their chat), apart from unanswered ones. */
export const UnreadCountChanged = message('unread_count_changed', { total: Type.Integer({ minimum: 0 }), chats: Type.Integer({ minimum: 0 }) });
export const ChannelConnected = message('channel_connected', { channel_id: Id, transport: TransportSchema });
export const ContactToCreate = message('contact_to_create', {
  channel_id: Id,
  chat_type: ChatType,
  chat_id: Id,
  phone: Nullable(Id),
  username: Nullable(Id),
  name: Nullable(Type.String({ maxLength: 200 })),
});
/** The agent asked the CRM for a new deal for the chat (its "Create deal"). Also posted as `WZ_CREATE_ENTITY`. */
export const DealToCreate = message('deal_to_create', { channel_id: Nullable(Id), chat_type: ChatType, chat_id: Id, user_id: Nullable(Id) });
/** The agent opened one of the chat's deals (its link, in a new tab). Also posted as `WZ_OPEN_ENTITY`. */
export const DealOpened = message('deal_opened', {
  channel_id: Nullable(Id),
  chat_type: ChatType,
  chat_id: Id,
  user_id: Nullable(Id),
  deal: Type.Object(
    { id: Id, name: Type.String({ maxLength: 200 }), uri: Nullable(Type.String({ maxLength: 2048 })), closed: Type.Boolean() },
    { additionalProperties: false },
  ),
});
/** The session ended (expired or revoked): the host may open a fresh link. */
export const SessionExpired = message('session_expired', {});

export const FrameToHostMessage = Type.Union([
  FrameReady,
  ChatOpened,
  UnansweredCountChanged,
  UnreadCountChanged,
  ChannelConnected,
  ContactToCreate,
  DealToCreate,
  DealOpened,
  SessionExpired,
]);
export type FrameToHostMessage = Static<typeof FrameToHostMessage>;

/** Host → frame. */
export const OpenChat = message('open_chat', { channel_id: Type.Optional(Id), chat_type: ChatType, chat_id: Id });
export const SetOptions = message('set_options', { lang: Type.Optional(EmbedOptions.properties.lang), theme: Type.Optional(EmbedOptions.properties.theme) });

export const HostToFrameMessage = Type.Union([OpenChat, SetOptions]);
export type HostToFrameMessage = Static<typeof HostToFrameMessage>;

/**
 * The original service's chat-window messages (v3 `POST /v3/iframe`, `options.useDealsEvents`), as its clients read
 * them: `{type, data}`, camelCase, no protocol tag. The frame posts one beside each deal message of the protocol
 * (`deal_to_create` → `WZ_CREATE_ENTITY`, `deal_opened` → `WZ_OPEN_ENTITY`), to the same exact origin.
 */
export interface WzCreateEntity {
  type: 'WZ_CREATE_ENTITY';
  data: { chatType: string; chatId: string; channelId: string | null; userId: string | null };
}
export interface WzOpenEntity {
  type: 'WZ_OPEN_ENTITY';
  data: WzCreateEntity['data'] & { entity: { id: string; name: string; link: string | null; closed: boolean } };
}
export type WzMessage = WzCreateEntity | WzOpenEntity;

export type BridgeMessageType<M extends { type: string }> = M['type'];
export type PayloadOf<M extends { type: string; payload: unknown }, T extends M['type']> = Extract<M, { type: T }>['payload'];
