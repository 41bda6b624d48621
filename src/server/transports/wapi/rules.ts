import type { TransportRules } from '../../core/channels/transport-rules.ts';

/**
 * WhatsApp Business API: connected by following an authorization URL. Interactive buttons and templates;
 * outside a customer's 24-hour window only a template may start the conversation. No edit or delete.
 */
export const wapiRules: TransportRules = {
  qrPlatform: null,
  creatableByApi: true,
  // The Cloud API's `caption` (at most 1024 characters) of an image, a video or a document; audio has none.
  caption: { chars: 1024, sounds: false },
  capabilities: {
    transport: 'wapi',
    connect: 'redirect_url',
    chat_types: ['whatsapp'],
    group_chat_types: [],
    text_limit: 4096,
    edit: null,
    delete: false,
    keyboard: 'business',
    templates: true,
    pairing_code: false,
    two_factor: false,
    can_write_first: false,
    contact_by_username_or_phone: false,
    reactions: false,
    typing: false,
    reply_window_hours: 24,
  },
};
