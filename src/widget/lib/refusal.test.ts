import { describe, expect, it } from 'vitest';
import { credentialRefusals } from '../../contract/credential-fields.ts';
import { BffError } from './bff-client.ts';
import { refusalOf } from './refusal.ts';

describe('refusals', () => {
  const refused = new BffError(400, {
    error: 'VALIDATION_ERROR',
    description: 'The messenger refused the credentials',
    data: { fields: [{ field: 'credentials.telegram_token', message: 'was revoked' }, { field: 'transport', message: 'is odd' }] },
  });

  it('puts field messages next to their inputs and the rest in the message', () => {
    expect(refusalOf(refused, { telegram_token: 'Bot token' })).toEqual({
      code: 'VALIDATION_ERROR',
      message: 'The messenger refused the credentials: transport is odd.',
      fields: { telegram_token: 'Bot token was revoked.' },
    });
  });

  it('joins two details of one field after its label once, each said in the screen’s language', () => {
    const twice = new BffError(400, {
      error: 'VALIDATION_ERROR',
      description: 'Request validation failed',
      data: { fields: [{ field: 'credentials.telegram_token', message: 'was revoked' }, { field: 'credentials.telegram_token', message: 'is required' }] },
    });
    expect(refusalOf(twice, { telegram_token: 'Bot token' }).fields).toEqual({ telegram_token: 'Bot token was revoked; is required.' });
    expect(refusalOf(twice, { telegram_token: 'Токен бота' }, 'ru').fields).toEqual({ telegram_token: 'Токен бота: отозван; обязательное поле.' });
  });

  it('says the gateway’s description, or that it could not be reached', () => {
    expect(refusalOf(new BffError(400, { error: 'TWO_FACTOR_CODE_INVALID', description: 'Two-factor code is invalid' }))).toEqual({
      code: 'TWO_FACTOR_CODE_INVALID',
      message: 'Two-factor code is invalid',
      fields: {},
    });
    expect(refusalOf(new TypeError('fetch failed')).message).toMatch(/could not be reached/);
  });
});

describe('refusals in Russian', () => {
  it('say the code and the field details they know in Russian, leave out English words of inputs not shown, and say when it could not be reached', () => {
    const refused = new BffError(400, {
      error: 'VALIDATION_ERROR',
      description: 'The messenger refused the credentials',
      data: { fields: [{ field: 'credentials.telegram_token', message: 'was revoked' }, { field: 'transport', message: 'is odd' }] },
    });
    expect(refusalOf(refused, { telegram_token: 'Токен бота' }, 'ru')).toEqual({
      code: 'VALIDATION_ERROR',
      message: 'Данные не приняты',
      fields: { telegram_token: 'Токен бота: отозван.' },
    });
    const unknownDetail = new BffError(400, { error: 'VALIDATION_ERROR', description: 'x', data: { fields: [{ field: 'credentials.code', message: 'is odd' }] } });
    expect(refusalOf(unknownDetail, { code: 'Код авторизации' }, 'ru').fields).toEqual({ code: 'Код авторизации: is odd.' });
    expect(refusalOf(new TypeError('fetch failed'), {}, 'ru').message).toMatch(/Не удалось связаться/);
    // A send the gateway refused for its recipient, as the chat frame meets it: no English left in the Russian screen.
    const recipient = new BffError(400, {
      error: 'VALIDATION_ERROR',
      description: 'x',
      data: { fields: [{ field: 'body.recipient.chat_id', message: 'must be an international number: digits only, no plus, with a valid country code' }] },
    });
    expect(refusalOf(recipient, {}, 'ru').message).toBe('Данные не приняты: номер получателя должен быть международным: только цифры, без плюса, с верным кодом страны.');
  });

  it('say every refusal of a credential the gateway can give in Russian', () => {
    for (const message of Object.values(credentialRefusals)) {
      const one = new BffError(400, { error: 'VALIDATION_ERROR', description: 'x', data: { fields: [{ field: 'credentials.access_token', message }] } });
      const said = refusalOf(one, { access_token: 'Токен' }, 'ru').fields.access_token!;
      expect(said, message).not.toContain(message);
      expect(said, message).toMatch(/^Токен: .*[а-яё]/);
    }
  });

  it('keep the gateway’s description for a code without Russian words', () => {
    expect(refusalOf(new BffError(418, { error: 'TEAPOT', description: 'I am a teapot' }), {}, 'ru').message).toBe('I am a teapot');
  });
});
