import { EDIT_WINDOW_SECONDS, type TransportRules } from '../../core/channels/transport-rules.ts';

/** Telegram personal account: QR, then a two-factor password when the account has one. */
export const tgapiRules: TransportRules = {
  qrPlatform: 'telegram_api',
  creatableByApi: true,
  // A media message's text: 1024 characters for an account without Premium, on any kind of file.
  caption: { chars: 1024, sounds: true },
  capabilities: {
    transport: 'tgapi',
    connect: 'qr',
    chat_types: ['telegram', 'telegroup'],
    group_chat_types: ['telegroup'],
    text_limit: 4096,
    edit: { window_seconds: EDIT_WINDOW_SECONDS, text_only: false, not_with_keyboard: false },
    delete: true,
    keyboard: null,
    templates: false,
    pairing_code: false,
    two_factor: true,
    can_write_first: true,
    contact_by_username_or_phone: true,
    reactions: true,
    typing: true,
    reply_window_hours: null,
  },
};
