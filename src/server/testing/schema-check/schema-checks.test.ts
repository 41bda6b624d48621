import { describe, expect, it } from 'vitest';
import { schemaChecks } from './schema-checks.ts';
import { maxAnswer, maxRequest, maxUpdate } from './max-schema.ts';
import { telegramAnswer, telegramRequest, telegramUpdate } from './telegram-schema.ts';
import { vkAnswer, vkEvent, vkFormParams, vkRequest } from './vk-schema.ts';
import { wapiAnswer, wapiRouteOf, wapiSend, wapiWebhook } from './wapi-schema.ts';

const keyboard = (button: Record<string, unknown>) => ({ text: 'Заказ готов', attachments: [{ type: 'inline_keyboard', payload: { buttons: [[button]] } }] });

describe('the platforms’ types from their npm packages, as the emulators check them', () => {
  it('gathers mismatches and throws them at the end, passing what fits', () => {
    const checks = schemaChecks('MAX');
    checks.check('request POST /messages', maxRequest('POST', '/messages'), keyboard({ type: 'callback', text: 'Да', payload: 'yes' }));
    expect(checks.mismatches).toEqual([]);
    checks.check('request POST /messages', maxRequest('POST', '/messages'), keyboard({ type: 'callback', text: 'Да', payload: 'yes', intent: 'positive' }));
    expect(checks.mismatches).toEqual([expect.stringContaining('request POST /messages')]);
    expect(() => checks.assertNone()).toThrow(/MAX's published API types were not kept/);
  });

  it('MAX: a button of each type with its fields only; a refusal is MAX’s error; an update', () => {
    expect(maxRequest('POST', '/messages')!(keyboard({ type: 'link', text: 'Трек', url: 'https://track.example.com/1' }))).toBe(true);
    expect(maxRequest('POST', '/messages')!(keyboard({ type: 'link', text: 'Трек' }))).toBe(false);
    expect(maxAnswer('POST', '/messages', 404)!({ code: 'chat.not.found', message: 'Chat not found' })).toBe(true);
    expect(maxAnswer('POST', '/messages', 404)!({ error: 'not found' })).toBe(false);
    expect(maxRequest('GET', '/me')).toBeUndefined();
    const user = { user_id: 7, first_name: 'Анна', name: 'Анна', username: null, is_bot: false, last_activity_time: 1 };
    expect(maxUpdate()!({ update_type: 'bot_started', timestamp: 1, chat_id: 5, user, payload: null, user_locale: 'ru' })).toBe(true);
    expect(maxUpdate()!({ update_type: 'bot_started', timestamp: 1, chat_id: 5, user: { ...user, colour: 'red' } })).toBe(false);
  });

  it('Telegram: a method’s parameters, its answer and an update, no field the Bot API lacks', () => {
    expect(telegramRequest('sendMessage')!({ chat_id: 1, text: 'hi' })).toBe(true);
    expect(telegramRequest('sendMessage')!({ chat_id: 1, text: 'hi', colour: 'red' })).toBe(false);
    expect(telegramRequest('sendMessage', true)!({ chat_id: '1', text: 'hi' })).toBe(true);
    expect(telegramAnswer('getFile')!({ ok: true, result: { file_id: 'a', file_path: 'files/a' } })).toBe(false);
    expect(telegramAnswer('getFile')!({ ok: true, result: { file_id: 'a', file_unique_id: 'AQADa', file_path: 'files/a' } })).toBe(true);
    expect(telegramAnswer('getFile')!({ ok: false, error_code: 400, description: 'Bad Request: invalid file_id' })).toBe(true);
    expect(telegramUpdate()!({ update_id: 1, message: { message_id: 1, date: 1, chat: { id: 1, type: 'private', first_name: 'A' }, from: { id: 1, is_bot: false, first_name: 'A' }, text: 'hi' } })).toBe(true);
    expect(telegramUpdate()!({ update_id: 1, message: { message_id: 1, date: 1, chat: { id: 1, type: 'private', first_name: 'A' }, from: { id: 1, is_bot: false, first_name: 'A' }, text: 'hi', colour: 'red' } })).toBe(false);
  });

  it('VK: a method’s form parameters (lists split, flags read) and answer, an event’s envelope', () => {
    expect(vkRequest('users.get')!(vkFormParams('users.get', { user_ids: '1,2', access_token: 't', v: '5.199' }))).toBe(true);
    expect(vkRequest('messages.send')!(vkFormParams('messages.send', { peer_id: '2', random_id: 'x', message: 'hi' }))).toBe(false);
    expect(vkAnswer('messages.send')!({ response: 12 })).toBe(true);
    expect(vkAnswer('messages.send')!({ response: 'twelve' })).toBe(false);
    expect(vkEvent('message_deny')!({ type: 'message_deny', group_id: 1, event_id: 'e', v: '5.199', secret: 's', object: { user_id: 2 } })).toBe(true);
    expect(vkEvent('message_deny')!({ type: 'message_deny', group_id: 1, secret: 's', object: { user_id: 2 } })).toBe(false);
    expect(vkEvent('message_new')!({ type: 'message_new', group_id: 1, event_id: 'e', v: '5.199', secret: 's', object: { client_info: {} } })).toBe(false);
  });

  it('WhatsApp: a send by its type, Meta’s answers and refusals, a messages notification', () => {
    const send = { messaging_product: 'whatsapp', recipient_type: 'individual', to: '15550001111' };
    const template = { ...send, type: 'template', template: { name: 'order_ready', language: { policy: 'deterministic', code: 'ru' }, components: [{ type: 'button', sub_type: 'quick_reply', index: '0', parameters: [{ type: 'payload', payload: 'yes' }] }] } };
    expect(wapiSend(template)!(template)).toBe(true);
    const numbered = { ...template, template: { ...template.template, components: [{ ...template.template.components[0]!, index: 0 }] } };
    expect(wapiSend(numbered)!(numbered)).toBe(false);
    const text = { ...send, type: 'text', text: { body: 'hi', preview_url: false, colour: 'red' } };
    expect(wapiSend(text)!(text)).toBe(false);
    expect(wapiSend({ ...send, type: 'sticker' })!({ ...send, type: 'sticker' })).toBe(false);
    expect(wapiRouteOf('POST', '/110/messages', () => false)).toBe('messages');
    expect(wapiRouteOf('GET', '/900', (id) => id === '900')).toBe('media');
    expect(wapiAnswer('media', 200)!({ messaging_product: 'whatsapp', url: 'https://x/m', mime_type: 'image/jpeg', sha256: 'ab', file_size: 10, id: '900' })).toBe(false);
    expect(wapiAnswer('media', 200)!({ messaging_product: 'whatsapp', url: 'https://x/m', mime_type: 'image/jpeg', sha256: 'ab', file_size: '10', id: '900' })).toBe(true);
    expect(wapiAnswer(null, 400)!({ error: { message: 'Invalid parameter', type: 'OAuthException', code: 100, fbtrace_id: 'A' } })).toBe(true);
    expect(wapiAnswer(null, 400)!({ error: 'Invalid parameter' })).toBe(false);
    expect(wapiRouteOf('GET', '/200/phone_numbers', () => false)).toBe('phone_numbers');
    expect(wapiAnswer('phone_numbers', 200)!({ data: [{ id: '110', display_phone_number: '+1 555-0100', quality_rating: 'GREEN', platform_type: 'CLOUD_API' }] })).toBe(true);
    expect(wapiAnswer('phone_numbers', 200)!({ data: [{ id: '110', status: 'LINKED' }] })).toBe(false);
    const value = { messaging_product: 'whatsapp', metadata: { display_phone_number: '15550100001', phone_number_id: '110' } };
    const change = (v: Record<string, unknown>) => ({ object: 'whatsapp_business_account', entry: [{ id: '1', changes: [{ field: 'messages', value: { ...value, ...v } }] }] });
    const message = { from: '15550001111', id: 'wamid.A', timestamp: '1700000000', type: 'text', text: { body: 'hi' } };
    expect(wapiWebhook()!(change({ contacts: [{ profile: { name: 'Anna' }, wa_id: '15550001111' }], messages: [message] }))).toBe(true);
    expect(wapiWebhook()!(change({ messages: [{ ...message, timestamp: 1700000000 }] }))).toBe(false);
    expect(wapiWebhook()!(change({ statuses: [{ id: 'wamid.A', status: 'delivered', timestamp: '1700000000', recipient_id: '15550001111' }] }))).toBe(true);
    expect(wapiWebhook()!(change({ statuses: [{ id: 'wamid.A', status: 'seen', timestamp: '1700000000', recipient_id: '15550001111' }] }))).toBe(false);
  });
});
