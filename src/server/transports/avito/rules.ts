import type { TransportRules } from '../../core/channels/transport-rules.ts';

/** Avito messenger: an authorization code; replies to customers who wrote first; texts up to 1,000 characters. */
export const avitoRules: TransportRules = {
  qrPlatform: null,
  creatableByApi: true,
  capabilities: {
    transport: 'avito',
    connect: 'code',
    chat_types: ['avito'],
    group_chat_types: [],
    text_limit: 1000,
    edit: null,
    delete: false,
    keyboard: null,
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
