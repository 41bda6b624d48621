import { describe, expect, it } from 'vitest';
import type { Recipient } from '../../../contract/messages.ts';
import { maxRules } from '../../transports/max/rules.ts';
import { telegramRules } from '../../transports/telegram/rules.ts';
import { whatsappRules } from '../../transports/whatsapp/rules.ts';
import { instApiRules } from '../../transports/instapi/rules.ts';
import { AppError } from '../errors.ts';
import { checkRecipient, isInternationalNumber } from './recipient.ts';

const fieldsOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return (err.data as { fields: { field: string; message: string }[] }).fields;
    throw err;
  }
  throw new Error('accepted');
};

describe('recipient rules', () => {
  const wa = whatsappRules.capabilities;
  it('accepts a whatsapp number with a real country code', () => {
    expect(checkRecipient(wa, { chat_type: 'whatsapp', chat_id: '79001112233', crm_contact_name: 'Ann' })).toEqual({
      chatType: 'whatsapp',
      chatId: '79001112233',
      username: null,
      phone: null,
      name: 'Ann',
    });
  });

  it.each<[string, Recipient, string, string]>([
    ['a plus', { chat_type: 'whatsapp', chat_id: '+79001112233' }, 'recipient.chat_id', 'digits only'],
    ['an unknown country code', { chat_type: 'whatsapp', chat_id: '99912345678' }, 'recipient.chat_id', 'valid country code'],
    ['no chat id', { chat_type: 'whatsapp' }, 'recipient.chat_id', 'is required'],
    ['a chat type of another transport', { chat_type: 'telegram', chat_id: '1' }, 'recipient.chat_type', 'is not a chat type'],
    ['a username on whatsapp', { chat_type: 'whatsapp', chat_id: '79001112233', username: 'ann' }, 'recipient.username', 'only for telegram and max'],
  ])('refuses whatsapp with %s', (_label, recipient, field, message) => {
    expect(fieldsOf(() => checkRecipient(wa, recipient))).toEqual(expect.arrayContaining([{ field, message: expect.stringContaining(message) }]));
  });

  it('lets telegram and max address by username or phone when the chat id is unknown', () => {
    expect(checkRecipient(telegramRules.capabilities, { chat_type: 'telegram', username: 'ann_smith' }).username).toBe('ann_smith');
    expect(checkRecipient(maxRules.capabilities, { chat_type: 'max', phone: '79001112233' }).phone).toBe('79001112233');
    expect(fieldsOf(() => checkRecipient(telegramRules.capabilities, { chat_type: 'telegram', username: '@ann' }))).toEqual([
      { field: 'recipient.username', message: 'must not start with @' },
    ]);
    expect(fieldsOf(() => checkRecipient(maxRules.capabilities, { chat_type: 'max', phone: '123' }))[0]!.field).toBe('recipient.phone');
    expect(fieldsOf(() => checkRecipient(telegramRules.capabilities, { chat_type: 'telegram' }))).toEqual([
      { field: 'recipient.chat_id', message: 'is required unless username or phone is given' },
    ]);
  });

  it('keeps an instagram name in lower case, as Instagram compares names', () => {
    expect(checkRecipient(instApiRules.capabilities, { chat_type: 'instagram', chat_id: 'Anna.K' }).chatId).toBe('anna.k');
    expect(checkRecipient(telegramRules.capabilities, { chat_type: 'telegram', chat_id: 'AbC' }).chatId).toBe('AbC');
  });

  it('refuses an instagram name with @', () => {
    expect(fieldsOf(() => checkRecipient(instApiRules.capabilities, { chat_type: 'instagram', chat_id: '@shop' }))).toEqual([
      { field: 'recipient.chat_id', message: 'must not start with @' },
    ]);
  });

  it('judges a number the same the second time, refused or accepted (the answer is remembered)', () => {
    for (let i = 0; i < 2; i++) {
      expect(isInternationalNumber('79001112233')).toBe(true);
      expect(isInternationalNumber('99912345678')).toBe(false);
      expect(isInternationalNumber('7900')).toBe(false);
    }
  });
});
