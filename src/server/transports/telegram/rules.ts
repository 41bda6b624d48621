import { EDIT_WINDOW_SECONDS, type TransportRules } from '../../core/channels/transport-rules.ts';

/** Telegram bot: a bot token; inline or reply keyboards; may not write first. */
export const telegramRules: TransportRules = {
  qrPlatform: null,
  creatableByApi: true,
  // The Bot API's `caption`, 0-1024 characters, on photos, videos, sounds, voice notes and documents.
  caption: { chars: 1024, sounds: true },
  capabilities: {
    transport: 'telegram',
    connect: 'bot_token',
    chat_types: ['telegram', 'telegroup'],
    group_chat_types: ['telegroup'],
    text_limit: 4096,
    edit: { window_seconds: EDIT_WINDOW_SECONDS, text_only: false, not_with_keyboard: false },
    delete: true,
    keyboard: 'telegram_bot',
    templates: false,
    pairing_code: false,
    two_factor: false,
    can_write_first: false,
    contact_by_username_or_phone: false,
    reactions: true,
    typing: true,
    reply_window_hours: null,
  },
};
