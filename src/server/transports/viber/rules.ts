import type { TransportRules } from '../../core/channels/transport-rules.ts';

/** Viber account: QR; texts up to Viber's 7,000 characters; no edit or delete. */
export const viberRules: TransportRules = {
  qrPlatform: 'viber',
  creatableByApi: true,
  capabilities: {
    transport: 'viber',
    connect: 'qr',
    chat_types: ['viber'],
    group_chat_types: [],
    text_limit: 7000,
    edit: null,
    delete: false,
    keyboard: null,
    templates: false,
    pairing_code: false,
    two_factor: false,
    can_write_first: true,
    contact_by_username_or_phone: false,
    reactions: false,
    typing: false,
    reply_window_hours: null,
  },
};
