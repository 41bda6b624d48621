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
  // The shape is checked as far as it is read: whatever else is posted here is taken and dropped, not a 500.
  if (typeof message !== 'object' || message === null || typeof message.message_id !== 'number') return null;
  if (typeof message.chat?.id !== 'number' || typeof message.from?.id !== 'number' || message.from.is_bot) return null;
  const text = message.text ?? message.caption ?? null;
  if (typeof text !== 'string') return null;
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
 * before anything is read. Telegram sends an update again until it is answered with 2xx (several may come at
 * once; recording locks the channel), so an update is answered only once it is recorded. A channel not active
 * yet (its webhook is set just before it is stored) or switched off answers 503: Telegram tries again later,
 * for up to a day. A deleted channel's webhook was removed, so nothing more comes for it.
 */
export function telegramUpdateHook(deps: { messages: MessageDeps; hookSecret(channelId: string): string }): MessengerHook {
  return async ({ channelId, headers, body }) => {
    // The secret comes from the channel's id and the gateway's key alone: a forged call is turned away before the database.
    if (!sameSecret(headers[SECRET_HEADER], deps.hookSecret(channelId))) return 'unauthorized';
    const arriving = arrivingOf((body as BotUpdate | null)?.message);
    if (!arriving) return 'ignored';
    const channel = await deps.messages.store.transaction((tx) => tx.channels.getByIdForUpdate(channelId));
    if (channel && channel.transport !== 'telegram') return 'ignored';
    if (!channel || channel.state.status !== 'active') return 'unavailable';
    try {
      await messageArrived(deps.messages, channel.accountId, channelId, arriving);
      return 'accepted';
    } catch (err) {
      // Switched off or deleted meanwhile.
      if (err instanceof AppError && (err.code === 'CHANNEL_WRONG_STATUS' || err.code === 'CHANNEL_NOT_FOUND')) return 'unavailable';
      throw err;
    }
  };
}
