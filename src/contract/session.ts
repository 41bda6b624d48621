import { Type, type Static } from 'typebox';
import { Channel } from './channel-api.ts';
import { TransportCapabilities, TransportSchema } from './channels.ts';
import { ActiveChat, ChatRef, EmbedOptions, SessionEvents } from './iframe-links.ts';

/** The frame's API (/bff): a session is what an iframe link is exchanged for, held in memory by the frame. */

export const ExchangeLinkBody = Type.Object(
  { link: Type.String({ minLength: 1, maxLength: 16_384, description: 'The `link` parameter of the iframe URL.' }) },
  { additionalProperties: false },
);

export const SessionToken = Type.Object({
  token: Type.String({ description: 'Send as `Authorization: Bearer <token>` and in the socket.io handshake `auth.token`.' }),
  expires_at: Type.String({ format: 'date-time', description: 'Renew before this time with POST /bff/session/renew.' }),
});
export type SessionToken = Static<typeof SessionToken>;

export const SessionRenewed = Type.Object({ expires_at: Type.String({ format: 'date-time' }) });

export const SessionKind = Type.Enum(['chats', 'channels'], { description: 'chats: the chat frame. channels: the connect frame.' });
export type SessionKind = Static<typeof SessionKind>;

/** Who the frame is and what it may touch. */
export const SessionInfo = Type.Object({
  kind: SessionKind,
  account_id: Type.String({ format: 'uuid' }),
  user: Type.Union([Type.Object({ id: Type.String(), name: Type.Union([Type.String(), Type.Null()]) }), Type.Null()]),
  scope: Type.Union([Type.Enum(['global', 'card']), Type.Null()], { description: 'null for a channels session.' }),
  chats: Type.Array(ChatRef, { description: 'The chats of a card session; empty otherwise.' }),
  active_chat: Type.Union([ActiveChat, Type.Null()]),
  transport: Type.Union([TransportSchema, Type.Null()], { description: 'Channels session: the transport to preselect.' }),
  channel_id: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], { description: 'Channels session: the channel to reconnect.' }),
  options: EmbedOptions,
  use_events: Type.Intersect([SessionEvents], {
    description:
      'Which bridge messages the frame posts to its host: `messages` (chat_opened, unanswered_count_changed), `deals` (contact_to_create and the CRM creations). Both while the link named no use_events.',
  }),
  client_type: Type.Union([Type.String(), Type.Null()], { description: 'The CRM client type the link named.' }),
  allowed_origins: Type.Array(Type.String(), { description: 'Origins that may frame the widget; the bridge talks only to one of them.' }),
  expires_at: Type.String({ format: 'date-time' }),
});
export type SessionInfo = Static<typeof SessionInfo>;

/**
 * The exchange's answer: the token, and the session's details as GET /bff/session tells them, so that a frame can
 * say `ready` without a second round trip (a frame taking up its session after a reload still asks GET /bff/session).
 */
export const ExchangedSession = Type.Object({
  token: SessionToken.properties.token,
  expires_at: SessionToken.properties.expires_at,
  session: SessionInfo,
});
export type ExchangedSession = Static<typeof ExchangedSession>;

/** A channel as the frames see it: the same view as GET /v2/channels, with its transport's capabilities. */
export const BffChannel = Channel;
export type BffChannel = Static<typeof BffChannel>;

/** A transport the connect frame can offer. */
export const BffTransport = Type.Object({
  transport: TransportSchema,
  creatable: Type.Boolean({ description: 'Whether POST /bff/channels connects it: every transport in the sandbox (VK connects only in this frame); with live drivers, those that have one.' }),
  capabilities: TransportCapabilities,
});
export type BffTransport = Static<typeof BffTransport>;

/** The QR a connecting channel shows now (GET /bff/channels/{id}/qr); later codes arrive as `channel.qr_update`. */
export const BffChannelQr = Type.Object({
  channel_id: Type.String({ format: 'uuid' }),
  qr_code: Type.String({ description: 'PNG data URL, as in channel.qr_update.' }),
  platform: Type.String({ description: 'As in channel.qr_update: whatsapp, telegram_api, viber, max.' }),
  expires_at: Type.String({ format: 'date-time', description: 'When this code is replaced by the next one.' }),
});
export type BffChannelQr = Static<typeof BffChannelQr>;
