import { callPacer, type CallLimits, type CallPacer } from '../call-pacer.ts';

/**
 * Below Telegram's own figures (about 30 messages a second per bot, 20 a minute per group), so that network
 * jitter cannot bunch calls over them; the chat limit holds for groups only.
 */
export const telegramLimits: CallLimits = { bot: { limit: 25, interval: 1000 }, chat: { limit: 1, interval: 3500 } };

/** Groups (negative chat ids) have the tighter limit; private chats are held only by the bot's pace. */
export const pacesGroupChats = (chatId: string): boolean => chatId.startsWith('-');

/**
 * Keeps a bot's calls within Telegram's limits in this process: per bot, and per group chat for sends into groups.
 * Per bot, 64 sends in flight wait under three seconds.
 */
export function botPacer(limits: CallLimits = telegramLimits): CallPacer {
  return callPacer(limits, pacesGroupChats);
}
