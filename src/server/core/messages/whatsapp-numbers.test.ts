import { describe, expect, it } from 'vitest';
import type { ChatRecord } from './ports.ts';
import { otherFormOf, whatsappChatIdOf } from './whatsapp-numbers.ts';

describe('the other form of a whatsapp number', () => {
  it('adds or drops a Brazilian mobile’s ninth digit, and the 1 of a Mexican mobile after 52', () => {
    expect(otherFormOf('5511987654321')).toBe('551187654321');
    expect(otherFormOf('551187654321')).toBe('5511987654321');
    expect(otherFormOf('5521961234567')).toBe('552161234567');
    expect(otherFormOf('5215512345678')).toBe('525512345678');
    expect(otherFormOf('525512345678')).toBe('5215512345678');
  });

  it('leaves every other number alone: landlines, area codes with a 0, other countries', () => {
    // A Brazilian landline (2–5 after the area code) never had a ninth digit.
    expect(otherFormOf('551132345678')).toBeNull();
    expect(otherFormOf('5511932345678')).toBeNull();
    expect(otherFormOf('5501987654321')).toBeNull();
    // A Mexican number beginning with 0 or 1 after 52 (or 521) is no mobile of the old form.
    expect(otherFormOf('5211012345678')).toBeNull();
    expect(otherFormOf('521512345678')).toBeNull();
    // Argentina's 9, Russia, the USA: only Meta can tell.
    expect(otherFormOf('541151234567')).toBeNull();
    expect(otherFormOf('79001234567')).toBeNull();
    expect(otherFormOf('15550100001')).toBeNull();
  });

  it('finds the chat of the number as written first, then of its other form, else names a new one', async () => {
    const existing = new Set<string>();
    const chats = { findByMessengerId: async (_c: string, _t: string, id: string) => (existing.has(id) ? ({ chatId: id } as ChatRecord) : undefined) };
    expect(await whatsappChatIdOf(chats, 'c', '5511987654321')).toBe('5511987654321');
    existing.add('551187654321');
    expect(await whatsappChatIdOf(chats, 'c', '5511987654321')).toBe('551187654321');
    existing.add('5511987654321');
    expect(await whatsappChatIdOf(chats, 'c', '5511987654321')).toBe('5511987654321');
    expect(await whatsappChatIdOf(chats, 'c', '551132345678')).toBe('551132345678');
  });
});
