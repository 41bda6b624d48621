import { describe, expect, it } from 'vitest';
import type { TransportCapabilities } from '../../../../contract/channels.ts';
import { addressKind, parseAddress, personalChatType, startsChats } from './new-chat.ts';

const caps = (over: Partial<TransportCapabilities>): TransportCapabilities =>
  ({
    transport: 'whatsapp',
    chat_types: ['whatsapp', 'whatsgroup'],
    group_chat_types: ['whatsgroup'],
    can_write_first: true,
    contact_by_username_or_phone: false,
    templates: false,
    ...over,
  }) as TransportCapabilities;

describe('starting a chat by the messenger’s rules', () => {
  it('names a WhatsApp contact by number, in any usual writing', () => {
    const wa = caps({});
    expect(addressKind(wa)).toBe('phone');
    expect(personalChatType(wa)).toBe('whatsapp');
    expect(parseAddress('phone', '+7 (916) 123-45-67', 'whatsapp', 'ch')).toEqual({ channel_id: 'ch', chat_type: 'whatsapp', chat_id: '79161234567' });
    expect(parseAddress('phone', '@anna', 'whatsapp', 'ch')).toBe('phone');
    expect(parseAddress('phone', '12345', 'whatsapp', 'ch')).toBe('phone');
    expect(parseAddress('phone', '  ', 'whatsapp', 'ch')).toBe('empty');
  });

  it('names a Telegram or MAX account’s contact by username or number', () => {
    const tg = caps({ transport: 'tgapi', chat_types: ['telegram', 'telegroup'], group_chat_types: ['telegroup'], contact_by_username_or_phone: true });
    expect(addressKind(tg)).toBe('phone_or_username');
    expect(parseAddress('phone_or_username', '@Anna_Petrova', 'telegram', 'ch')).toEqual({ channel_id: 'ch', chat_type: 'telegram', username: 'Anna_Petrova' });
    expect(parseAddress('phone_or_username', '+44 20 7946 0958', 'telegram', 'ch')).toEqual({ channel_id: 'ch', chat_type: 'telegram', phone: '442079460958' });
    expect(parseAddress('phone_or_username', '@ann', 'telegram', 'ch')).toBe('phone_or_username');
    expect(parseAddress('phone_or_username', '@1anna', 'telegram', 'ch')).toBe('phone_or_username');
  });

  it('offers only channels whose messenger lets a business write first, or a template', () => {
    expect(startsChats(caps({ can_write_first: false }))).toBe(false);
    expect(startsChats(caps({ can_write_first: false, templates: true }))).toBe(true);
    expect(addressKind(caps({ transport: 'viber', chat_types: ['viber'], group_chat_types: [] }))).toBe('id');
  });
});
