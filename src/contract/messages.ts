import { Type, type Static } from 'typebox';
import { chatTypes } from './channels.ts';

/** Messages: the send request, edits, and what events report about them (interface "Resources", "Events"). */

export const messageStatuses = ['accepted', 'sent', 'delivered', 'read', 'failed'] as const;
export type MessageStatus = (typeof messageStatuses)[number];

/** `reason` of a failed message (interface, "Values of reason when status is failed"). */
export const failureReasons = [
  'network_error', 'bad_contact', 'text_length_is_too_much', 'is_spam', 'to_many_requests', 'bad_content', 'canceled',
  'over_24_hour_limit', 'wapi_not_enough_money', 'waba_rejected_by_experiment', 'tgapi_megagroups_not_enabled',
  'waba_limit_marketing_template_sending', 'waba_business_account_locked', 'message_limit_exceeded', 'bad_required_parameter',
  'stop_receiving_marketing_messages', 'voice_messages_forbidden', 'input_user_deactivated', 'privacy_premium_required',
  'allow_payment_required', 'message_empty', 'session_revoked', 'file_part_missing', 'channel_private', 'contact_can_not_create',
  'channel_blocked', 'message_channel_unavailable', 'messages_invalid_contact_type', 'chat_is_blocked',
  'messages_not_text_first_from_telegram_bot', 'messages_not_text_first', 'unknown_error', 'can_not_get_content',
  'target_user_is_blocked', 'no_user_permissions', 'waba_message_undeliverable', 'viber_is_blocked',
  // Extension: a personal channel's send held by its pacing longer than the profile's limit (docs/whatsapp-personal.md).
  'held_too_long',
] as const;
export type FailureReason = (typeof failureReasons)[number];

export const ChatTypeSchema = Type.Enum([...chatTypes], { description: 'Kind of chat.' });

const CHAT_ID_DESCRIPTION =
  'Messenger id of the chat; digits only for whatsapp and viber, no @ for instagram. A Brazilian or Mexican mobile goes to the ' +
  'channel’s existing whatsapp chat of the same mobile written the other way (with or without Brazil’s ninth digit, or the 1 after 52) ' +
  'when only that one exists.';

export const Recipient = Type.Object(
  {
    chat_type: ChatTypeSchema,
    chat_id: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: CHAT_ID_DESCRIPTION })),
    username: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'telegram and max only: user or bot name without @.' })),
    phone: Type.Optional(Type.String({ minLength: 1, maxLength: 32, description: 'telegram and max only: international number, digits only.' })),
    crm_contact_name: Type.Optional(Type.String({ maxLength: 256 })),
  },
  { additionalProperties: false },
);
export type Recipient = Static<typeof Recipient>;

/**
 * `sender` of an inbound `message.add`: who wrote. In a group chat the member (`chat_type` of the member's own chat:
 * telegram for a telegroup, whatsapp for a whatsgroup, max for a maxgroup); otherwise the chat's customer, as in
 * `recipient`. A group message whose member the messenger did not name carries no `sender`.
 */
export const MessageSender = Type.Object(
  {
    chat_type: ChatTypeSchema,
    chat_id: Type.Union([Type.String(), Type.Null()]),
    name: Type.Union([Type.String(), Type.Null()]),
    username: Type.Union([Type.String(), Type.Null()], { description: 'telegram and max: user name without @.' }),
    phone: Type.Union([Type.String(), Type.Null()], { description: 'International number, digits only, where the messenger gives it.' }),
  },
  { additionalProperties: false },
);
export type MessageSender = Static<typeof MessageSender>;

/** An attachment is fetched over http or https only: any other scheme could never be fetched, and would hold its chat up. */
export const HTTP_URL_PATTERN = '^[Hh][Tt][Tt][Pp][Ss]?://';
/** 4 GiB. */
export const MAX_ATTACHMENT_SIZE = 4 * 1024 ** 3;

export const Attachment = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 2048, format: 'uri', pattern: HTTP_URL_PATTERN, description: 'Direct link to the file (http or https).' }),
    name: Type.Optional(Type.String({ maxLength: 256 })),
    mimetype: Type.Optional(Type.String({ maxLength: 128 })),
    // No messenger takes a file near this size; the bound keeps `1e400` (Infinity once parsed) out.
    size: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_ATTACHMENT_SIZE })),
    sha1: Type.Optional(Type.String({ pattern: '^[0-9a-fA-F]{40}$' })),
  },
  { additionalProperties: false },
);
export type Attachment = Static<typeof Attachment>;

export const TemplateRef = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'Template id from GET /v2/templates.' }),
    values: Type.Optional(Type.Array(Type.String({ maxLength: 1024 }), { maxItems: 100 })),
    buttons: Type.Optional(
      Type.Array(
        Type.Object(
          { text: Type.Optional(Type.String()), type: Type.Optional(Type.String()), payload: Type.String({ minLength: 1, maxLength: 1024 }) },
          { additionalProperties: false },
        ),
        { maxItems: 10 },
      ),
    ),
  },
  { additionalProperties: false },
);
export type TemplateRef = Static<typeof TemplateRef>;

/** A template as a sent message carries it: the reference, and the words it filled in for the customer. */
export const SentTemplate = Type.Object(
  {
    ...TemplateRef.properties,
    text: Type.Optional(Type.String({ description: 'What the customer read: header, body and footer with the values filled in.' })),
  },
  { additionalProperties: false },
);

/**
 * One keyboard field for three dialects (business API, telegram bot, max bot): which one applies follows
 * the channel's transport, so the shape of `buttons` is checked by the transport's rules, not here.
 */
export const Keyboard = Type.Object(
  {
    reply_markup: Type.Optional(Type.Enum(['inline', 'reply'])),
    one_time_keyboard: Type.Optional(Type.Boolean()),
    resize_keyboard: Type.Optional(Type.Boolean()),
    selective: Type.Optional(Type.Boolean()),
    remove_keyboard: Type.Optional(Type.Boolean()),
    buttons: Type.Array(Type.Unknown(), { maxItems: 1000 }),
  },
  { additionalProperties: false },
);
export type Keyboard = Static<typeof Keyboard>;

export const SendMessageBody = Type.Object(
  {
    channel_id: Type.String({ format: 'uuid' }),
    recipient: Recipient,
    quoted_message_id: Type.Optional(Type.String({ format: 'uuid' })),
    text: Type.Optional(Type.String({ minLength: 1, maxLength: 65_536 })),
    attachment: Type.Optional(Attachment),
    template: Type.Optional(TemplateRef),
    crm_user_id: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
    reset_unanswered: Type.Optional(Type.Boolean({ default: true })),
    keyboard: Type.Optional(Keyboard),
  },
  { additionalProperties: false },
);
export type SendMessageBody = Static<typeof SendMessageBody>;

export const SendMessageResult = Type.Object({
  request_id: Type.String({ format: 'uuid' }),
  chat_id: Type.Union([Type.String(), Type.Null()], { description: 'Echoed from the request; null when it had none (then it arrives in message.add).' }),
  warnings: Type.Optional(Type.Array(Type.String(), { description: 'What was dropped or not sent, e.g. keyboard buttons beyond the limit.' })),
});
export type SendMessageResult = Static<typeof SendMessageResult>;

export const MessageIdParams = Type.Object({ message_id: Type.String({ format: 'uuid' }) });

export const EditMessageBody = Type.Object(
  {
    text: Type.Optional(Type.String({ minLength: 1, maxLength: 65_536 })),
    attachment: Type.Optional(Attachment),
    crm_user_id: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  },
  { additionalProperties: false },
);
export type EditMessageBody = Static<typeof EditMessageBody>;

export const MessageRef = Type.Object({ message_id: Type.String({ format: 'uuid' }), chat_id: Type.Union([Type.String(), Type.Null()]) });
export type MessageRef = Static<typeof MessageRef>;

/** The interface's wording, kept exactly (docs/decisions.md). */
export const CONTENT_CONFLICT = 'Cannot provide more that one of text, attachment or template';

/** Sets a reaction to a message (one emoji), or takes it back (`null`). */
export const ReactionBody = Type.Object(
  { emoji: Type.Union([Type.String({ minLength: 1, maxLength: 32, description: 'One emoji.' }), Type.Null()]) },
  { additionalProperties: false },
);
export type ReactionBody = Static<typeof ReactionBody>;
