import { maxAnswer, maxRequest, maxUpdate } from './max-schema.ts';
import { telegramAnswer, telegramRequest, telegramUpdate } from './telegram-schema.ts';
import { wapiAnswer, wapiSend, wapiWebhook, WAPI_SENDS } from './wapi-schema.ts';
import { vkAnswer, vkEvent, vkRequest, VK_METHODS_CHECKED, VK_EVENTS_CHECKED } from './vk-schema.ts';

/**
 * Each emulator compiles the validators it will use when it starts (once per process), not on the first call a
 * test makes: a test that times its calls, or a gateway that gives a platform a deadline, is not slowed by a compile.
 */

const TELEGRAM_METHODS = ['getMe', 'setWebhook', 'getWebhookInfo', 'deleteWebhook', 'sendMessage', 'sendPhoto', 'sendVideo', 'sendAudio', 'sendDocument', 'editMessageText', 'editMessageCaption', 'editMessageMedia', 'deleteMessage', 'answerCallbackQuery', 'getFile'];
export function warmTelegram(): void {
  telegramUpdate();
  for (const method of TELEGRAM_METHODS) {
    telegramRequest(method);
    if (method.startsWith('send') || method === 'editMessageMedia') telegramRequest(method, true);
    telegramAnswer(method);
  }
}

const MAX_ROUTES: [string, string][] = [['GET', '/me'], ['GET', '/subscriptions'], ['POST', '/subscriptions'], ['DELETE', '/subscriptions'], ['POST', '/uploads'], ['POST', '/messages'], ['PUT', '/messages'], ['DELETE', '/messages'], ['POST', '/answers'], ['GET', '/videos/v']];
export function warmMax(): void {
  maxUpdate();
  maxAnswer('GET', '/me', 400);
  for (const [method, path] of MAX_ROUTES) {
    maxRequest(method, path);
    maxAnswer(method, path, 200);
  }
}

export function warmVk(): void {
  for (const name of VK_METHODS_CHECKED) {
    vkRequest(name);
    vkAnswer(name);
  }
  for (const type of VK_EVENTS_CHECKED) vkEvent(type);
}

export function warmWapi(): void {
  for (const type of WAPI_SENDS) wapiSend({ type });
  for (const route of ['messages', 'media', 'phone_numbers'] as const) wapiAnswer(route, 200);
  wapiAnswer(null, 400);
  wapiWebhook();
}
