import { EDIT_WINDOW_SECONDS, type TransportRules } from '../../core/channels/transport-rules.ts';

/** MAX personal account: QR; writes first, also by username or phone. */
export const maxRules: TransportRules = {
  qrPlatform: 'max',
  creatableByApi: true,
  capabilities: {
    transport: 'max',
    connect: 'qr',
    chat_types: ['max', 'maxgroup'],
    group_chat_types: ['maxgroup'],
    text_limit: 4096,
    edit: { window_seconds: EDIT_WINDOW_SECONDS, text_only: false, not_with_keyboard: false },
    delete: true,
    keyboard: null,
    templates: false,
    pairing_code: false,
    two_factor: false,
    can_write_first: true,
    contact_by_username_or_phone: true,
    reactions: false,
    typing: false,
    reply_window_hours: null,
  },
};
