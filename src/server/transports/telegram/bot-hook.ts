import { timingSafeEqual } from 'node:crypto';
import { platformReported, type ArrivingMessage } from '../../core/messages/inbound.ts';
import type { MessageDeps, MessengerHook } from '../../core/messages/ports.ts';
import type { Attachment } from '../../../contract/messages.ts';
import type { BotMessage, BotUpdate } from './bot-api.ts';
import { fileOf, type TelegramFiles } from './bot-files.ts';

const SECRET_HEADER = 'x-telegram-bot-api-secret-token';

function sameSecret(given: unknown, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The messages of an update as the gateway records them: a customer's private chat with the bot (`telegram`) or a
 * group the bot is in (`telegroup`). A file (`attachmentOf` gives it its link) is one message and its caption
 * another, numbered `<id>:caption`, as the interface's messages carry text or an attachment. Other bots, channel
 * posts and messages with neither words nor a file (a sticker, a poll) are not recorded.
 */
export function arrivingOf(message: BotMessage | undefined, attachmentOf?: (found: NonNullable<ReturnType<typeof fileOf>>) => Attachment): ArrivingMessage[] {
  // The shape is checked as far as it is read: whatever else is posted here is taken and dropped, not a 500.
  if (typeof message !== 'object' || message === null || typeof message.message_id !== 'number') return [];
  if (typeof message.chat?.id !== 'number' || typeof message.from?.id !== 'number' || message.from.is_bot) return [];
  const person = [message.from.first_name, message.from.last_name].filter(Boolean).join(' ') || null;
  const chat =
    message.chat.type === 'private'
      ? { chatType: 'telegram' as const, chatId: String(message.chat.id), username: message.from.username ?? null, name: person }
      : message.chat.type === 'group' || message.chat.type === 'supergroup'
        ? { chatType: 'telegroup' as const, chatId: String(message.chat.id), username: null, name: message.chat.title ?? null }
        : null;
  if (!chat) return [];
  const id = String(message.message_id);
  const common = { ...chat, direction: 'inbound' as const, phone: null };
  const found = attachmentOf ? fileOf(message) : null;
  const words = message.text ?? message.caption;
  return [
    ...(found && attachmentOf ? [{ ...common, text: null, attachment: attachmentOf(found), messengerMessageId: id }] : []),
    ...(typeof words === 'string' ? [{ ...common, text: words, attachment: null, messengerMessageId: found ? `${id}:caption` : id }] : []),
  ];
}

/**
 * Updates Telegram posts to `/hooks/telegram/<channel id>`. Each carries the channel's secret, which is checked
 * before anything is read. Telegram sends an update again until it is answered with 2xx (several may come at
 * once; recording locks the channel), so an update is answered only once its messages are recorded, together. A channel not active
 * yet (its webhook is set just before it is stored) or switched off answers 503: Telegram tries again later,
 * for up to a day. A deleted channel's webhook was removed, so nothing more comes for it.
 */
export function telegramUpdateHook(deps: { messages: MessageDeps; hookSecret(channelId: string): string; files?: TelegramFiles }): MessengerHook {
  return async ({ channelId, headers, body }) => {
    // The secret comes from the channel's id and the gateway's key alone: a forged call is turned away before the database.
    if (!sameSecret(headers[SECRET_HEADER], deps.hookSecret(channelId))) return 'unauthorized';
    const files = deps.files;
    const arriving = arrivingOf((body as BotUpdate | null)?.message, files ? (found) => files.attachment(channelId, found) : undefined);
    if (arriving.length === 0) return 'ignored';
    return (await platformReported(deps.messages, channelId, arriving)) ? 'accepted' : 'unavailable';
  };
}
