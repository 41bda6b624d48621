import type { TransportRules } from '../../core/channels/transport-rules.ts';

/** VK community: connected through the channels iframe only; texts up to VK's 4,096 characters. */
export const vkRules: TransportRules = {
  qrPlatform: null,
  creatableByApi: false,
  // `messages.send` takes the `message` (at most 4096 characters) with its `attachment`, a photo or a document alike.
  caption: { chars: 4096, sounds: true },
  capabilities: {
    transport: 'vk',
    connect: 'iframe',
    chat_types: ['vk'],
    group_chat_types: [],
    text_limit: 4096,
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
