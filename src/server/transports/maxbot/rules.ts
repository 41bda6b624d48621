import { EDIT_WINDOW_SECONDS, type TransportRules } from '../../core/channels/transport-rules.ts';

/** MAX bot: an access token; typed buttons; messages with a keyboard cannot be edited; may not write first. */
export const maxbotRules: TransportRules = {
  qrPlatform: null,
  creatableByApi: true,
  // `POST /messages` takes `text` (NewMessageBody: at most 4000 characters) with `attachments` of any kind.
  caption: { chars: 4000, sounds: true },
  capabilities: {
    transport: 'maxbot',
    connect: 'bot_token',
    chat_types: ['max', 'maxgroup'],
    group_chat_types: ['maxgroup'],
    text_limit: 4096,
    edit: { window_seconds: EDIT_WINDOW_SECONDS, text_only: false, not_with_keyboard: true },
    delete: true,
    keyboard: 'max_bot',
    templates: false,
    pairing_code: false,
    two_factor: false,
    can_write_first: false,
    contact_by_username_or_phone: false,
    reactions: false,
    typing: false,
    reply_window_hours: null,
  },
};
