import { describe, expect, it } from 'vitest';
import type { Transport } from '../../../../contract/channels.ts';
import { credentialFields as contractFields } from '../../../../contract/credential-fields.ts';
import { credentialFields, credentialsOf, fieldWords, formatPairingCode, missingFields, pairingPhone } from './credentials.ts';
import { channelIdentity, describeStatus, transportName } from './words.ts';

describe('status in plain words', () => {
  it('says what each status and reason means for the admin', () => {
    expect(describeStatus({ status: 'active', reason: null }, 'en')).toEqual({ text: 'Connected', tone: 'ok' });
    expect(describeStatus({ status: 'init', reason: 'wait_for_password' }, 'en')).toEqual({ text: 'Waiting for the two-factor password', tone: 'progress' });
    expect(describeStatus({ status: 'init', reason: null, url: 'https://x' }, 'en').text).toBe('Waiting for authorization at the provider');
    expect(describeStatus({ status: 'init', reason: 'something_new' }, 'en')).toEqual({ text: 'Connecting', tone: 'progress' });
    expect(describeStatus({ status: 'disabled', reason: 'foreignphone' }, 'en')).toEqual({ text: 'Off: a different phone number scanned the code', tone: 'off' });
    expect(describeStatus({ status: 'disabled', reason: 'something_new' }, 'en')).toEqual({ text: 'Off', tone: 'off' });
    // A reason that happens to be a property of every object is not a status word.
    expect(describeStatus({ status: 'disabled', reason: 'constructor' }, 'en').text).toBe('Off');
    expect(describeStatus({ status: 'disabled', reason: 'unauthorized', capabilities: { connect: 'qr' } }, 'en').text).toBe('Off: signed out on the phone');
    expect(describeStatus({ status: 'disabled', reason: 'unauthorized', capabilities: { connect: 'bot_token' } }, 'en').text).toBe('Off: the bot token was revoked');
    expect(describeStatus({ status: 'disabled', reason: 'unauthorized', capabilities: { connect: 'fields' } }, 'en').text).toBe('Off: the authorization was revoked');
  });

  it('says it in Russian, with the same tones', () => {
    expect(describeStatus({ status: 'active', reason: null }, 'ru')).toEqual({ text: 'Подключён', tone: 'ok' });
    expect(describeStatus({ status: 'init', reason: 'qr' }, 'ru')).toEqual({ text: 'Ожидает сканирования QR-кода', tone: 'progress' });
    expect(describeStatus({ status: 'init', reason: 'wait_for_password' }, 'ru').text).toBe('Ожидает облачного пароля');
    expect(describeStatus({ status: 'init', reason: null, url: 'https://x' }, 'ru').text).toBe('Ожидает авторизации у провайдера');
    expect(describeStatus({ status: 'init', reason: null }, 'ru').text).toBe('Подключается');
    expect(describeStatus({ status: 'disabled', reason: 'qridle' }, 'ru')).toEqual({ text: 'Отключён: QR-код не отсканировали вовремя', tone: 'off' });
    expect(describeStatus({ status: 'disabled', reason: 'unauthorized', capabilities: { connect: 'qr' } }, 'ru').text).toBe('Отключён: выполнен выход на телефоне');
    expect(describeStatus({ status: 'disabled', reason: 'unauthorized', capabilities: { connect: 'bot_token' } }, 'ru').text).toBe('Отключён: токен бота отозван');
    expect(describeStatus({ status: 'disabled', reason: 'something_new' }, 'ru')).toEqual({ text: 'Отключён', tone: 'off' });
  });

  it('names the transports as an admin calls them', () => {
    expect(transportName('telegram', 'en')).toBe('Telegram bot');
    expect(transportName('tgapi', 'en')).toBe('Telegram account');
    expect(transportName('telegram', 'ru')).toBe('Telegram-бот');
    expect(transportName('tgapi', 'ru')).toBe('Telegram-аккаунт');
    expect(transportName('vk', 'ru')).toBe('ВКонтакте');
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
    expect(credentialFields('telegram', 'en').map((f) => [f.name, f.label])).toEqual([['telegram_token', 'Bot token']]);
    expect(credentialFields('maxbot', 'en').map((f) => f.name)).toEqual(['access_token']);
    expect(credentialFields('avito', 'en').map((f) => f.name)).toEqual(['code']);
    expect(credentialFields('instAPI', 'en').map((f) => f.name)).toEqual(['username', 'page_id', 'inst_id', 'user_token']);
    // VK authorizes the community at VK: no credentials, like the QR transports and wapi.
    for (const t of ['whatsapp', 'tgapi', 'viber', 'max', 'wapi', 'vk'] as const) expect(credentialFields(t, 'en')).toEqual([]);
    // English hints are the contract's own descriptions.
    expect(credentialFields('telegram', 'en')[0]!.hint).toBe(contractFields.telegram[0].description);
  });

  it('labels every field of the contract in Russian, Spanish and Portuguese, with a hint and what to say when it is empty', () => {
    for (const [transport, fields] of Object.entries(contractFields) as [Transport, readonly { name: string }[]][]) {
      for (const { name } of fields) {
        expect(fieldWords.en[name], `English words for ${transport}.${name}`).toBeDefined();
        for (const lang of ['ru', 'es', 'pt'] as const) {
          const words = fieldWords[lang][name];
          expect(words, `${lang} words for ${transport}.${name}`).toBeDefined();
          expect(words!.label).not.toBe(fieldWords.en[name]!.label);
          expect(words!.hint, `${lang} hint for ${transport}.${name}`).toBeTruthy();
          expect(words!.missing).toBeTruthy();
        }
      }
    }
    expect(credentialFields('telegram', 'ru')[0]).toEqual({
      name: 'telegram_token',
      label: 'Токен бота',
      hint: 'Токен бота от @BotFather.',
      missing: 'Введите токен бота.',
    });
  });

  it('sends trimmed values and names what is missing', () => {
    expect(credentialsOf('telegram', { telegram_token: ' 1:abc\n', other: 'x' })).toEqual({ telegram_token: '1:abc' });
    expect(missingFields('avito', { code: '  ' }, 'en')).toEqual({ code: 'Enter the authorization code.' });
    expect(missingFields('telegram', {}, 'en')).toEqual({ telegram_token: 'Enter the bot token.' });
    expect(missingFields('instAPI', { username: 'shop' }, 'en')).toMatchObject({ page_id: 'Enter the Facebook page ID.' });
    expect(missingFields('avito', { code: '  ' }, 'ru')).toEqual({ code: 'Введите код авторизации.' });
    expect(missingFields('whatsapp', {}, 'ru')).toEqual({});
  });

  it('takes a phone as people type it and gives the gateway digits', () => {
    expect(pairingPhone('+7 (900) 111-22-33', 'en')).toEqual({ phone: '79001112233' });
    expect(pairingPhone('0049 30 1234567', 'en')).toEqual({ phone: '49301234567' });
    expect(pairingPhone('12', 'en')).toEqual({ error: 'Enter the full international number with the country code, e.g. +7 900 111 22 33.' });
    expect(pairingPhone('+0 900', 'en')).toHaveProperty('error');
    expect(pairingPhone('12', 'ru')).toEqual({ error: 'Введите номер полностью, с кодом страны, например +7\u00a0900\u00a0111\u00a022\u00a033.' });
  });

  it('shows a pairing code in two groups of four', () => {
    expect(formatPairingCode('ABCD2345')).toBe('ABCD-2345');
  });
});
