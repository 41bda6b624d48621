import { platformReported, type PlatformOutcome } from '../../core/messages/inbound.ts';
import { platformEdited, platformMovedChat } from '../../core/messages/platform-changes.ts';
import type { MessageDeps, MessengerHook } from '../../core/messages/ports.ts';
import { sameSecret } from '../bot-common.ts';
import type { BotUpdate } from './bot-api.ts';
import type { TelegramFiles } from './bot-files.ts';
import { platformReacted } from '../../core/messages/reactions.ts';
import { reactionOf } from './bot-reactions.ts';
import { arrivingOf, editsOf, moveOf, pressOf, type AttachmentOf } from './bot-updates.ts';

const SECRET_HEADER = 'x-telegram-bot-api-secret-token';

/**
 * Updates Telegram posts to `/hooks/telegram/<channel id>`: new messages, customers' edits of them, a group's move
 * to a supergroup, presses of inline buttons, and reactions. Each carries the channel's secret, which is checked before
 * anything is read. Telegram sends an update again until it is answered with 2xx (several may come at once;
 * recording locks the channel), so an update is answered only once what it says is recorded, together. A channel
 * not active yet (its webhook is set just before it is stored) or switched off answers 503: Telegram tries again
 * later, for up to a day. A deleted channel's webhook was removed, so nothing more comes for it.
 */
export function telegramUpdateHook(deps: { messages: MessageDeps; hookSecret(channelId: string): string; files?: TelegramFiles }): MessengerHook {
  // Not recorded, for whatever reason the channel could not take it: Telegram sends it again (for up to a day).
  const recorded = (outcome: PlatformOutcome) => (outcome === 'recorded' ? 'accepted' : 'unavailable');
  return async ({ channelId, headers, body, respond }) => {
    // The secret comes from the channel's id and the gateway's key alone: a forged call is turned away before the database.
    if (!sameSecret(headers[SECRET_HEADER], deps.hookSecret(channelId))) return 'unauthorized';
    const files = deps.files;
    const attachmentOf: AttachmentOf | undefined = files ? (found) => files.attachment(channelId, found) : undefined;
    const update = typeof body === 'object' && body !== null ? (body as Partial<BotUpdate>) : {};
    if (update.callback_query !== undefined) {
      const query = update.callback_query;
      const press = pressOf(query);
      const outcome = press ? recorded(await platformReported(deps.messages, channelId, [press])) : 'ignored';
      // The press is answered in the reply to the webhook, as the Bot API lets a webhook do: the customer's button
      // stops waiting. Not while the channel cannot take it: Telegram sends it again.
      if (outcome !== 'unavailable' && typeof query?.id === 'string') respond?.({ method: 'answerCallbackQuery', callback_query_id: query.id });
      return outcome;
    }
    if (update.message_reaction !== undefined) {
      const reaction = reactionOf(update.message_reaction);
      return reaction ? recorded(await platformReacted(deps.messages, channelId, [reaction])) : 'ignored';
    }
    if (update.edited_message !== undefined) {
      const edits = editsOf(update.edited_message, attachmentOf);
      return edits.length === 0 ? 'ignored' : recorded(await platformEdited(deps.messages, channelId, edits));
    }
    const move = moveOf(update.message);
    if (move) return recorded(await platformMovedChat(deps.messages, channelId, move));
    const arriving = arrivingOf(update.message, attachmentOf);
    if (arriving.length === 0) return 'ignored';
    return recorded(await platformReported(deps.messages, channelId, arriving));
  };
}
