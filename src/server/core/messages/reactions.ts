import type { ChatType } from '../../../contract/channels.ts';
import type { MessageReaction } from '../../../contract/bff-chats.ts';
import { wrongStatus } from '../channels/channel-steps.ts';
import type { ChannelRecord } from '../channels/ports.ts';
import { AppError, validationError } from '../errors.ts';
import { recordEvent } from '../events/record-event.ts';
import type { TransactionScope } from '../ports.ts';
import { changeable } from './edit-delete.ts';
import { onActiveChannel, type PlatformOutcome } from './inbound.ts';
import { chatOrderingKey } from './message-events.ts';
import type { ChatRecord, MessageDeps, MessageRecord } from './ports.ts';

/** The reactor that stands for the account's own side (its agents, or the phone's owner). */
export const AGENT_REACTOR = 'agent';

/** Emoji reactions to messages, one per reactor and message; removing one deletes it. */
export interface ReactionRepository {
  /** Sets (or with null removes) the reactor's reaction; answers the emoji it replaced, if any. */
  set(messageId: string, reactor: string, emoji: string | null, at: Date): Promise<string | null>;
  /** The reactions of these messages, oldest first, by message id (messages without any are absent). */
  ofMessages(messageIds: string[]): Promise<Map<string, MessageReaction[]>>;
}

/** What a reaction looks like at most: a single emoji, perhaps with modifiers, joiners and a variation selector. */
const MAX_EMOJI_LENGTH = 32;
const emojiPattern = /^[\p{Extended_Pictographic}\p{Emoji_Component}\u200d\ufe0f\u20e3]+$/u;
export const isReactionEmoji = (emoji: string) => emoji.length <= MAX_EMOJI_LENGTH && emojiPattern.test(emoji);

/** Records a reaction and its `message.reaction` event in the caller's transaction; nothing when it changes nothing. */
async function recordReaction(
  tx: TransactionScope,
  deps: Pick<MessageDeps, 'clock'>,
  message: MessageRecord,
  chat: Pick<ChatRecord, 'id' | 'chatType' | 'chatId'>,
  reaction: { reactor: string; emoji: string | null; crmUserId: string | null },
): Promise<void> {
  const at = deps.clock.now();
  const old = await tx.reactions.set(message.id, reaction.reactor, reaction.emoji, at);
  if (old === reaction.emoji) return;
  await recordEvent(tx, deps.clock, {
    accountId: message.accountId,
    name: 'message.reaction',
    orderingKey: chatOrderingKey(chat.id),
    payload: {
      message_id: message.id,
      channel_id: message.channelId,
      chat_type: chat.chatType,
      chat_id: chat.chatId,
      by: reaction.reactor === AGENT_REACTOR ? 'agent' : 'customer',
      reactor: reaction.reactor,
      emoji: reaction.emoji,
      old_emoji: old,
      crm_user_id: reaction.crmUserId,
      timestamp: at.getTime(),
    },
  });
}

/**
 * The agent's side reacts to a message of the chat (either side's) with an emoji, or takes its reaction back
 * (`emoji` null), on a transport whose messenger has reactions, through an active channel. The messenger is told
 * first; what it refuses is not recorded.
 */
export async function reactToMessage(deps: MessageDeps, accountId: string, messageId: string, emoji: string | null, crmUserId: string | null): Promise<void> {
  if (emoji !== null && !isReactionEmoji(emoji)) throw validationError([{ field: 'emoji', message: 'must be one emoji' }]);
  const { message, channel, capabilities, chat, chatId } = await changeable(deps, accountId, messageId);
  if (!capabilities.reactions || !deps.driver.react) {
    throw new AppError('CHANNEL_INVALID_TRANSPORT_FOR_REACTIONS', `Messages of ${channel.transport} channels cannot be reacted to`);
  }
  if (channel.state.status !== 'active') throw wrongStatus(channel, 'Reactions are sent only through an active channel');
  if (message.messengerMessageId === null || message.status === 'failed' || !chat) {
    throw new AppError('CHANNEL_WRONG_STATUS', 'The message has not been sent', { status: message.status, reason: message.reason });
  }
  await deps.driver.react({
    channelId: channel.id,
    transport: channel.transport,
    chatType: chat.chatType,
    chatId,
    messengerMessageId: message.messengerMessageId,
    direction: message.direction,
    sealedCredentials: channel.credentials,
    emoji,
  });
  await deps.store.transaction((tx) => recordReaction(tx, deps, message, chat, { reactor: AGENT_REACTOR, emoji, crmUserId }));
}

/** A reaction a messenger reports: who reacted (`reactor`: the customer's id, or `agent` for the account's phone). */
export interface ReportedReaction {
  chatType: ChatType;
  chatId: string;
  messengerMessageId: string;
  reactor: string;
  /** Null: the reaction was taken back. */
  emoji: string | null;
}

/** A reported reaction, on a channel locked by the caller's transaction; one to a message never recorded is dropped. */
export async function recordReportedReaction(tx: TransactionScope, deps: Pick<MessageDeps, 'clock'>, channel: Pick<ChannelRecord, 'id'>, r: ReportedReaction): Promise<void> {
  const chat = await tx.chats.findByMessengerId(channel.id, r.chatType, r.chatId);
  const message = chat && (await tx.messages.findByMessengerId(chat.id, r.messengerMessageId));
  if (!chat || !message || message.deletedAt) return;
  await recordReaction(tx, deps, message, chat, { reactor: r.reactor, emoji: r.emoji, crmUserId: null });
}

/** Reactions a platform reports, for a channel it knows only by id. */
export async function platformReacted(deps: MessageDeps, channelId: string, reactions: ReportedReaction[]): Promise<PlatformOutcome> {
  return onActiveChannel(deps, channelId, async (tx, channel) => {
    for (const r of reactions) await recordReportedReaction(tx, deps, channel, r);
  });
}
