import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { TransportCapabilities, transports } from '../../contract/channels.ts';
import { transportRules } from './rules.ts';

const where = (predicate: (c: TransportCapabilities) => boolean) =>
  transports.filter((t) => predicate(transportRules[t].capabilities)).sort();

describe('transport rules', () => {
  it.each(transports)('%s has a table that fits the capabilities schema and names itself', (transport) => {
    const rules = transportRules[transport];
    expect(rules.capabilities.transport).toBe(transport);
    expect(Value.Check(TransportCapabilities, rules.capabilities)).toBe(true);
    expect(rules.capabilities.group_chat_types.every((t) => rules.capabilities.chat_types.includes(t))).toBe(true);
  });

  it('limits texts as docs/decisions.md says', () => {
    for (const t of ['whatsapp', 'telegram', 'tgapi', 'max', 'maxbot'] as const) expect(transportRules[t].capabilities.text_limit).toBe(4096);
    expect(transportRules.instAPI.capabilities.text_limit).toBe(1000);
  });

  it('lets exactly the interface’s transports edit and delete, within 15 minutes', () => {
    expect(where((c) => c.edit !== null)).toEqual(['max', 'maxbot', 'telegram', 'tgapi', 'whatsapp']);
    expect(where((c) => c.delete)).toEqual(['max', 'maxbot', 'telegram', 'tgapi', 'whatsapp']);
    expect(where((c) => c.edit?.text_only === true)).toEqual(['whatsapp']);
    expect(where((c) => c.edit?.not_with_keyboard === true)).toEqual(['maxbot']);
    expect(new Set(transports.flatMap((t) => transportRules[t].capabilities.edit?.window_seconds ?? []))).toEqual(new Set([900]));
  });

  it('connects by QR exactly the transports the interface names, with the pairing code for whatsapp and 2FA for tgapi', () => {
    expect(where((c) => c.connect === 'qr')).toEqual(['max', 'tgapi', 'viber', 'whatsapp']);
    expect(transports.filter((t) => transportRules[t].qrPlatform !== null).sort()).toEqual(['max', 'tgapi', 'viber', 'whatsapp']);
    expect(where((c) => c.pairing_code)).toEqual(['whatsapp']);
    expect(where((c) => c.two_factor)).toEqual(['tgapi']);
    expect(where((c) => c.connect === 'bot_token')).toEqual(['maxbot', 'telegram']);
    expect(transportRules.wapi.capabilities.connect).toBe('redirect_url');
    expect(transportRules.avito.capabilities.connect).toBe('code');
    expect(transportRules.instAPI.capabilities.connect).toBe('fields');
    expect(transports.filter((t) => !transportRules[t].creatableByApi)).toEqual(['vk']);
  });

  it('gives keyboards to business API, telegram bots and max bots only', () => {
    expect(transportRules.wapi.capabilities.keyboard).toBe('business');
    expect(transportRules.telegram.capabilities.keyboard).toBe('telegram_bot');
    expect(transportRules.maxbot.capabilities.keyboard).toBe('max_bot');
    expect(where((c) => c.keyboard !== null)).toEqual(['maxbot', 'telegram', 'wapi']);
  });

  it('lets bots, instagram and business API not write first, and looks contacts up by username or phone only on personal telegram and max', () => {
    expect(where((c) => !c.can_write_first)).toEqual(['avito', 'instAPI', 'maxbot', 'telegram', 'vk', 'wapi']);
    expect(where((c) => c.contact_by_username_or_phone)).toEqual(['max', 'tgapi']);
  });

  it('puts words under a file in the same message on the messengers whose bots or accounts the gateway sends so, within their limits', () => {
    expect(transports.filter((t) => transportRules[t].caption).sort()).toEqual(['maxbot', 'telegram', 'tgapi', 'vk', 'wapi', 'whatsapp']);
    expect(transportRules.maxbot.caption).toEqual({ chars: 4000, sounds: true });
    expect(transportRules.vk.caption).toEqual({ chars: 4096, sounds: true });
  });

  it('closes replies 24 hours after the customer last wrote on the business API (templates aside) and on Instagram', () => {
    expect(transportRules.wapi.capabilities.reply_window_hours).toBe(24);
    expect(transportRules.instAPI.capabilities.reply_window_hours).toBe(24);
    expect(where((c) => c.reply_window_hours !== null)).toEqual(['instAPI', 'wapi']);
  });
});
