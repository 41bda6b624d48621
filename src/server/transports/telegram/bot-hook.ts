import { timingSafeEqual } from 'node:crypto';
import { AppError } from '../../core/errors.ts';
import { messageArrived, type ArrivingMessage } from '../../core/messages/inbound.ts';
import type { MessageDeps, MessengerHook } from '../../core/messages/ports.ts';
import type { BotMessage, BotUpdate } from './bot-api.ts';

const SECRET_HEADER = 'x-telegram-bot-api-secret-token';

function sameSecret(given: unknown, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * A message of an update as the gateway records it: a customer's private chat with the bot (`telegram`) or a
 * group the bot is in (`telegroup`). Other bots, channel posts and messages without words (a sticker, a
 * photo without a caption) are not recorded yet.
 */
export function arrivingOf(message: BotMessage | undefined): ArrivingMessage | null {
  if (!message || !message.from || message.from.is_bot) return null;
  const text = message.text ?? message.caption ?? null;
  if (text === null) return null;
  const person = [message.from.first_name, message.from.last_name].filter(Boolean).join(' ') || null;
  const common = { text, attachment: null, direction: 'inbound' as const, messengerMessageId: String(message.message_id), phone: null };
  if (message.chat.type === 'private') {
    return { ...common, chatType: 'telegram', chatId: String(message.chat.id), username: message.from.username ?? null, name: person };
  }
  if (message.chat.type === 'group' || message.chat.type === 'supergroup') {
    return { ...common, chatType: 'telegroup', chatId: String(message.chat.id), username: null, name: message.chat.title ?? null };
  }
  return null;
}

/**
 * Updates Telegram posts to `/hooks/telegram/<channel id>`. Each carries the channel's secret, which is checked
 * before anything is read. Telegram posts a bot's updates one at a time and sends one again until it is
 * answered with 2xx, so an update is answered only once it is recorded; an update that is not for an active
 * telegram channel is answered too, so that Telegram lets it go.
 */
export function telegramUpdateHook(deps: { messages: MessageDeps; hookSecret(channelId: string): string }): MessengerHook {
  return async ({ channelId, headers, body }) => {
    const channel = await deps.messages.store.transaction((tx) => tx.channels.getByIdForUpdate(channelId));
    if (!channel || channel.transport !== 'telegram') return 'ignored';
    if (!sameSecret(headers[SECRET_HEADER], deps.hookSecret(channelId))) return 'unauthorized';
    const arriving = arrivingOf((body as BotUpdate | null)?.message);
    if (!arriving) return 'ignored';
    try {
      await messageArrived(deps.messages, channel.accountId, channelId, arriving);
      return 'accepted';
    } catch (err) {
      // A channel switched off since: what reaches it is not recorded (as the sandbox refuses it).
      if (err instanceof AppError && (err.code === 'CHANNEL_WRONG_STATUS' || err.code === 'CHANNEL_NOT_FOUND')) return 'ignored';
      throw err;
    }
  };
}
