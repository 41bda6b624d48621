import type { TransportRules } from '../../core/channels/transport-rules.ts';

/**
 * Instagram API: four credential fields; 1,000-character texts; may not write first, and answers only within 24 hours
 * of the customer's last message (Meta's standard messaging window; no templates reopen it).
 */
export const instApiRules: TransportRules = {
  qrPlatform: null,
  creatableByApi: true,
  capabilities: {
    transport: 'instAPI',
    connect: 'fields',
    chat_types: ['instagram'],
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
    reply_window_hours: 24,
  },
};
