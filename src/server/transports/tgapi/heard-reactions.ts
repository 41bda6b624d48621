import type { tl } from '@mtcute/core';
import type { PlatformReport } from '../../core/messages/platform-reports.ts';

/** The emoji of a reaction, or undefined for one the interface cannot show (a custom emoji, a paid star). */
const emojiOf = (reaction: tl.TypeReaction): string | undefined => (reaction._ === 'reactionEmoji' ? reaction.emoticon : undefined);

/**
 * The customer's reaction to a message of a private chat, from the message's reactions as Telegram gives them now:
 * an emoji, null when they have none, undefined when it cannot be told (a custom emoji; a `min` summary without the
 * list of who reacted). `recentReactions` names each reactor (in a private chat Telegram lists them: there are two
 * at most); without it, a count larger than the account's own share (`chosenOrder`) is the customer's.
 */
export function customerReactionOf(reactions: tl.TypeMessageReactions | null | undefined, customerId: number): string | null | undefined {
  if (!reactions) return null;
  if (reactions.recentReactions) {
    const theirs = reactions.recentReactions.find((r) => !r.my && r.peerId._ === 'peerUser' && r.peerId.userId === customerId);
    return theirs ? emojiOf(theirs.reaction) : null;
  }
  if (reactions.min) return undefined;
  const theirs = reactions.results.find((r) => r.count > (r.chosenOrder === undefined ? 0 : 1));
  return theirs ? emojiOf(theirs.reaction) : null;
}

/**
 * A reaction report for a message of a private chat (the chat is the customer's user id), or none when the reaction
 * cannot be told. A reaction the same as the one recorded changes nothing (the core records changes only), so the
 * message's whole state can be reported each time Telegram sends it: an added, changed or taken-back reaction all
 * come as the message's reactions now.
 */
export function privateReactionReport(customerId: number, messageId: number, reactions: tl.TypeMessageReactions | null | undefined): PlatformReport | null {
  const emoji = customerReactionOf(reactions, customerId);
  if (emoji === undefined) return null;
  const chatId = String(customerId);
  return { kind: 'reaction', reaction: { chatType: 'telegram', chatId, messengerMessageId: String(messageId), reactor: chatId, emoji } };
}
