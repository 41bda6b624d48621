import type { ReportedReaction } from '../../core/messages/reactions.ts';
import type { BotChat, BotUser } from './bot-api.ts';

/** A reaction as the Bot API names it; bots hear and set plain emoji only (custom and paid ones are not read). */
export type BotReactionType = { type: 'emoji'; emoji: string } | { type: 'custom_emoji'; custom_emoji_id: string } | { type: 'paid' };

/** `message_reaction`: a user changed their reactions to a message (sent only when `allowed_updates` asks for it). */
export interface BotMessageReaction {
  chat: BotChat;
  message_id: number;
  user?: BotUser;
  /** An anonymous group admin or a channel reacting as the chat. */
  actor_chat?: BotChat;
  date: number;
  old_reaction: BotReactionType[];
  new_reaction: BotReactionType[];
}

/** The parameters of `setMessageReaction`: the bot's one reaction, or none (taken back). */
export const reactionParams = (chatId: string, messageId: number, emoji: string | null) => ({
  chat_id: chatId,
  message_id: messageId,
  reaction: emoji === null ? [] : [{ type: 'emoji', emoji }],
});

/**
 * A user's reaction, as the gateway keeps one per reactor: the first plain emoji they now have, or none. A reaction
 * made as a chat (anonymously) has no user and is left out, as are chats other than private ones and groups.
 */
export function reactionOf(update: BotMessageReaction | undefined): ReportedReaction | null {
  if (!update || typeof update.message_id !== 'number' || typeof update.user?.id !== 'number') return null;
  const type = update.chat?.type;
  const chatType = type === 'private' ? 'telegram' : type === 'group' || type === 'supergroup' ? 'telegroup' : null;
  if (!chatType) return null;
  const emoji = (update.new_reaction ?? []).find((r): r is Extract<BotReactionType, { type: 'emoji' }> => r.type === 'emoji')?.emoji ?? null;
  return { chatType, chatId: String(update.chat.id), messengerMessageId: String(update.message_id), reactor: String(update.user.id), emoji };
}
