import { Type, type Static } from 'typebox';

/** Transports of the interface; `vk` channels are connected through the channels iframe only. */
export const transports = ['telegram', 'tgapi', 'wapi', 'whatsapp', 'instAPI', 'viber', 'avito', 'max', 'maxbot', 'vk'] as const;
export type Transport = (typeof transports)[number];
export const TransportSchema = Type.Enum([...transports], { description: 'Kind of channel.' });

/** Recipient `chat_type` values of the interface. */
export const chatTypes = ['whatsapp', 'whatsgroup', 'viber', 'instagram', 'telegram', 'telegroup', 'vk', 'avito', 'max', 'maxgroup', 'cian'] as const;
export type ChatType = (typeof chatTypes)[number];

export const channelStatuses = ['active', 'init', 'disabled'] as const;
export type ChannelStatus = (typeof channelStatuses)[number];

export const initReasons = ['wait_for_password', 'wait_for_code', 'qr', 'sync'] as const;
export const disabledReasons = ['blocked', 'not_enough_money', 'rejected', 'unauthorized', 'foreignphone', 'qridle', 'openelsewhere'] as const;
export type InitReason = (typeof initReasons)[number];
export type DisabledReason = (typeof disabledReasons)[number];
export type ChannelReason = InitReason | DisabledReason;

/** A channel's status with the reasons the interface allows for it: active never has one. */
export type ChannelState =
  | { status: 'active'; reason: null }
  | { status: 'init'; reason: InitReason | null }
  | { status: 'disabled'; reason: DisabledReason | null };

export const tiers = ['TIER_0', 'TIER_50', 'TIER_250', 'TIER_1K', 'TIER_10K', 'TIER_100K', 'TIER_UNLIMITED'] as const;
export type Tier = (typeof tiers)[number];

/** How a transport is connected. */
export type ConnectFlow = 'qr' | 'bot_token' | 'redirect_url' | 'code' | 'fields' | 'iframe';

/** Which keyboard dialect a transport accepts, if any. */
export type KeyboardKind = 'business' | 'telegram_bot' | 'max_bot';

/** What a channel of a transport can do; the core validates with it and the widget shows only what works. */
export const TransportCapabilities = Type.Object({
  transport: TransportSchema,
  connect: Type.Enum(['qr', 'bot_token', 'redirect_url', 'code', 'fields', 'iframe']),
  chat_types: Type.Array(Type.Enum([...chatTypes])),
  group_chat_types: Type.Array(Type.Enum([...chatTypes])),
  text_limit: Type.Integer({ description: 'Longest text the messenger accepts, in characters.' }),
  edit: Type.Union([
    Type.Null(),
    Type.Object({
      window_seconds: Type.Integer(),
      text_only: Type.Boolean(),
      not_with_keyboard: Type.Boolean(),
    }),
  ]),
  delete: Type.Boolean(),
  keyboard: Type.Union([Type.Null(), Type.Enum(['business', 'telegram_bot', 'max_bot'])]),
  templates: Type.Boolean(),
  pairing_code: Type.Boolean(),
  two_factor: Type.Boolean(),
  can_write_first: Type.Boolean(),
  contact_by_username_or_phone: Type.Boolean(),
  reactions: Type.Boolean({ description: 'Whether messages can be reacted to with an emoji (sent and heard) on this transport.' }),
  typing: Type.Boolean({ description: 'Whether the messenger shows the account typing, and tells when the customer types.' }),
  reply_window_hours: Type.Union([Type.Null(), Type.Integer({ minimum: 1 })], {
    description:
      'Hours after the customer’s last message in which any message may be sent; after them only a template starts the conversation again (the business API’s 24 hours). Null: no such window.',
  }),
});
export type TransportCapabilities = Static<typeof TransportCapabilities>;
