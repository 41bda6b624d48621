import { callPacer, type CallLimits } from '../call-pacer.ts';

/**
 * Below Telegram's own figures (about 30 messages a second per bot, 20 a minute per group), so that network
 * jitter cannot bunch calls over them; the chat limit holds for groups only.
 */
export const telegramLimits: CallLimits = { bot: { limit: 25, interval: 1000 }, chat: { limit: 1, interval: 3500 } };

/**
 * Keeps a bot's calls within Telegram's limits: per bot, and per group chat (negative chat ids) for sends into
 * groups, whose limit is the tighter one; private chats are held only by the bot's pace. Per bot, 64 sends in
 * flight wait under three seconds.
 */
export function botPacer(limits: CallLimits = telegramLimits) {
  return callPacer(limits, (chatId) => chatId.startsWith('-'));
}
