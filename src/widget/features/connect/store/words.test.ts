import { describe, expect, it } from 'vitest';
import { credentialFields, credentialsOf, formatPairingCode, missingFields, pairingPhone } from './credentials.ts';
import { channelIdentity, describeStatus } from './words.ts';

describe('status in plain words', () => {
  it('says what each status and reason means for the admin', () => {
    expect(describeStatus({ status: 'active', reason: null })).toEqual({ text: 'Connected', tone: 'ok' });
    expect(describeStatus({ status: 'init', reason: 'wait_for_password' })).toEqual({ text: 'Waiting for the two-factor password', tone: 'progress' });
    expect(describeStatus({ status: 'init', reason: null, url: 'https://x' }).text).toBe('Waiting for authorization at the provider');
    expect(describeStatus({ status: 'disabled', reason: 'foreignphone' })).toEqual({ text: 'Off: a different phone number scanned the code', tone: 'off' });
    expect(describeStatus({ status: 'disabled', reason: 'something_new' })).toEqual({ text: 'Off', tone: 'off' });
    expect(describeStatus({ status: 'disabled', reason: 'unauthorized', capabilities: { connect: 'qr' } }).text).toBe('Off: signed out on the phone');
    expect(describeStatus({ status: 'disabled', reason: 'unauthorized', capabilities: { connect: 'bot_token' } }).text).toBe('Off: the bot token was revoked');
  });

  it('names a channel by what the messenger told', () => {
    expect(channelIdentity({ name: 'Shop', phone: '79001112233', username: null })).toBe('Shop · +79001112233');
    expect(channelIdentity({ name: null, phone: null, username: 'shop_bot' })).toBe('@shop_bot');
    expect(channelIdentity({ name: null, phone: null, username: null })).toBe('');
    expect(channelIdentity({ name: 'Sandbox +79001112233', phone: '79001112233', username: null })).toBe('Sandbox +79001112233');
    expect(channelIdentity({ name: 'Sandbox bot', phone: null, username: 'sandbox_bot' })).toBe('Sandbox bot · @sandbox_bot');
  });
});

describe('credentials', () => {
  it('asks each transport for the fields of its contract schema', () => {
    expect(credentialFields('telegram').map((f) => [f.name, f.label])).toEqual([['telegram_token', 'Bot token']]);
    expect(credentialFields('maxbot').map((f) => f.name)).toEqual(['access_token']);
    expect(credentialFields('avito').map((f) => f.name)).toEqual(['code']);
    expect(credentialFields('instAPI').map((f) => f.name)).toEqual(['username', 'page_id', 'inst_id', 'user_token']);
    // VK authorizes the community at VK: no credentials, like the QR transports and wapi.
    for (const t of ['whatsapp', 'tgapi', 'viber', 'max', 'wapi', 'vk'] as const) expect(credentialFields(t)).toEqual([]);
    expect(credentialFields('telegram')[0]!.hint).toMatch(/BotFather/);
  });

  it('sends trimmed values and names what is missing', () => {
    expect(credentialsOf('telegram', { telegram_token: ' 1:abc\n', other: 'x' })).toEqual({ telegram_token: '1:abc' });
    expect(missingFields('avito', { code: '  ' })).toEqual({ code: 'Enter the authorization code.' });
    expect(missingFields('whatsapp', {})).toEqual({});
  });

  it('takes a phone as people type it and gives the gateway digits', () => {
    expect(pairingPhone('+7 (900) 111-22-33')).toEqual({ phone: '79001112233' });
    expect(pairingPhone('0049 30 1234567')).toEqual({ phone: '49301234567' });
    expect(pairingPhone('12')).toHaveProperty('error');
    expect(pairingPhone('+0 900')).toHaveProperty('error');
  });

  it('shows a pairing code in two groups of four', () => {
    expect(formatPairingCode('ABCD2345')).toBe('ABCD-2345');
  });
});
