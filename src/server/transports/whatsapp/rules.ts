import { EDIT_WINDOW_SECONDS, type TransportRules } from '../../core/channels/transport-rules.ts';

/** WhatsApp personal account: QR or pairing code; edits text only; writes first. */
export const whatsappRules: TransportRules = {
  qrPlatform: 'whatsapp',
  creatableByApi: true,
  // WhatsApp shows a caption under a photo, a video or a document, not under a sound or a voice note.
  caption: { chars: 1024, sounds: false },
  capabilities: {
    transport: 'whatsapp',
    connect: 'qr',
    chat_types: ['whatsapp', 'whatsgroup'],
    group_chat_types: ['whatsgroup'],
    text_limit: 4096,
    edit: { window_seconds: EDIT_WINDOW_SECONDS, text_only: true, not_with_keyboard: false },
    delete: true,
    keyboard: null,
    templates: false,
    pairing_code: true,
    two_factor: false,
    can_write_first: true,
    contact_by_username_or_phone: false,
    reactions: true,
    typing: true,
    reply_window_hours: null,
  },
};
