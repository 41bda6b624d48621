import { randomUUID } from 'node:crypto';
import type { ChatType } from '../../../contract/channels.ts';
import type { Attachment } from '../../../contract/messages.ts';
import { channelNotFound, wrongStatus } from '../channels/channel-steps.ts';
import { sessionReconnecting } from '../channels/session-reachability.ts';
import { messageAddedEvent } from './message-events.ts';
import type { ChannelRecord } from '../channels/ports.ts';
import type { TransactionScope } from '../ports.ts';
import type { ChatRecord, MessageDeps, MessageRecord, MessageSender } from './ports.ts';
import { assignNewCustomer } from '../rights/assignment.ts';
import { askCrmForNewCustomer } from '../deals/crm-asks.ts';

export interface ArrivingMessage {
  chatType: ChatType;
  chatId: string;
  username: string | null;
  phone: string | null;
  name: string | null;
  text: string | null;
  attachment: Attachment | null;
  /** `outbound`: written on the phone itself rather than through the gateway. */
  direction: 'inbound' | 'outbound';
  messengerMessageId: string;
  /** The messenger's number of a message of the chat this one answers (the message whose button was pressed). */
  quotedMessengerId?: string;
  /**
   * The platform's copy of a message the account sent (an echo), which may be one the gateway is sending right now
   * and has not recorded the platform's number of yet: see platformReports, which holds it back meanwhile.
   */
  echo?: boolean;
  /** Who wrote, when it is not the chat's customer: the member of a group chat. */
  sender?: MessageSender;
  /**
   * Words the gateway numbered otherwise before (MAX's `<mid>:text`, VK's `<id>` beside files, now `:caption`): the
   * platform may post a message again across an upgrade, and words recorded under such a number are these.
   */
  earlierNumbers?: string[];
}

/** The message a report repeats: one recorded under its number, or words recorded under an earlier numbering. */
async function reportedBefore(tx: TransactionScope, chatRef: string, arriving: ArrivingMessage): Promise<MessageRecord | undefined> {
  const same = await tx.messages.findByMessengerId(chatRef, arriving.messengerMessageId);
  if (same) return same;
  for (const number of arriving.earlierNumbers ?? []) {
    const earlier = await tx.messages.findByMessengerId(chatRef, number);
    // Only words stand for words: under an earlier number may now be a file of the same message.
    if (earlier && earlier.attachment === null && earlier.text !== null) return earlier;
  }
  return undefined;
}

/**
 * A message the messenger reports: a customer wrote, or the account's owner wrote from the phone. The chat is
 * created on first contact (or a chat waiting for this username or phone learns its id); an inbound message
 * counts as unanswered until an outbound one resets the counter.
 */
export async function messageArrived(
  deps: MessageDeps,
  accountId: string,
  channelId: string,
  arriving: ArrivingMessage,
): Promise<{ message_id: string; chat_id: string }> {
  return deps.store.transaction(async (tx) => {
    const channel = await tx.channels.getForUpdate(accountId, channelId);
    if (!channel) throw channelNotFound(channelId);
    if (channel.state.status !== 'active') throw wrongStatus(channel, 'Only an active channel receives messages');
    return recordArrival(tx, deps, channel, arriving);
  });
}

/**
 * What became of a platform's report on a channel it knows only by id: `recorded`; `not_yet` when the channel is
 * not stored (a connect is storing it) or is between states (a reinit, a history sync), so the platform should send
 * it again later; `switched_off` when the channel is disabled, which the platform's driver may drop rather than have
 * sent again.
 */
export type PlatformOutcome = 'recorded' | 'not_yet' | 'switched_off';

/**
 * Runs `work` on the channel, locked, in one transaction, if it is active or its session is only reconnecting (what
 * the session heard did arrive, and the messenger will not report it again); says why not otherwise.
 */
export async function onActiveChannel(
  deps: Pick<MessageDeps, 'store' | 'rules'>,
  channelId: string,
  work: (tx: TransactionScope, channel: ChannelRecord) => Promise<void>,
  guard?: (tx: TransactionScope) => Promise<void>,
): Promise<PlatformOutcome> {
  return deps.store.transaction(async (tx) => {
    // First, before the channel is locked: a long-lived session's fence (it throws when the lease is stale).
    await guard?.(tx);
    const channel = await tx.channels.getByIdForUpdate(channelId);
    if (channel?.state.status === 'disabled') return 'switched_off';
    if (!channel || (channel.state.status !== 'active' && !sessionReconnecting(deps.rules, channel))) return 'not_yet';
    await work(tx, channel);
    return 'recorded';
  });
}

/** Messages a platform posted for a channel (one update: a file and its caption, say), recorded together. */
export async function platformReported(deps: MessageDeps, channelId: string, arrivals: ArrivingMessage[]): Promise<PlatformOutcome> {
  return onActiveChannel(deps, channelId, async (tx, channel) => {
    for (const arriving of arrivals) await recordArrival(tx, deps, channel, arriving);
  });
}

/** One reported message on a channel locked by the caller's transaction. */
export async function recordArrival(tx: TransactionScope, deps: MessageDeps, channel: ChannelRecord, arriving: ArrivingMessage): Promise<{ message_id: string; chat_id: string }> {
  const { accountId, id: channelId } = channel;
  const now = deps.clock.now();
  const by = arriving.username !== null ? { username: arriving.username } : arriving.phone !== null ? { phone: arriving.phone } : null;
  const byId = await tx.chats.findByMessengerId(channelId, arriving.chatType, arriving.chatId);
  // The messenger may report a message again when its answer was lost: the first report's message stands. Only a
  // chat known by the messenger's id can hold it (one waiting for a username or phone has heard nothing yet).
  const again = byId ? await reportedBefore(tx, byId.id, arriving) : undefined;
  if (again) return { message_id: again.id, chat_id: arriving.chatId };
  const known = byId ?? (by ? await tx.chats.findPending(channelId, arriving.chatType, by) : undefined);
  const base =
    known ??
    (await tx.chats.insert({
      id: randomUUID(),
      accountId,
      channelId,
      chatType: arriving.chatType,
      chatId: arriving.chatId,
      username: arriving.username,
      phone: arriving.phone,
      name: arriving.name,
      unanswered: 0,
      lastMessageAt: null,
      createdAt: now,
    }));
  const chat: ChatRecord = {
    ...base,
    chatId: arriving.chatId,
    username: base.username ?? arriving.username,
    phone: base.phone ?? arriving.phone,
    name: base.name ?? arriving.name,
    unanswered: arriving.direction === 'inbound' ? base.unanswered + 1 : 0,
    lastMessageAt: now,
  };
  await tx.chats.update(chat);
  if (!known && arriving.direction === 'inbound') {
    const given = await assignNewCustomer(tx, chat, now);
    if (given) await askCrmForNewCustomer(tx, deps.clock, chat, given);
  }
  const quoted = arriving.quotedMessengerId !== undefined ? await tx.messages.findByMessengerId(chat.id, arriving.quotedMessengerId) : undefined;
  const message: MessageRecord = {
    id: randomUUID(),
    requestId: null,
    accountId,
    channelId,
    chatRef: chat.id,
    direction: arriving.direction,
    status: 'sent',
    reason: null,
    text: arriving.text,
    attachment: arriving.attachment,
    template: null,
    keyboard: null,
    quotedMessageId: quoted?.id ?? null,
    crmUserId: null,
    resetUnanswered: arriving.direction === 'outbound',
    messengerMessageId: arriving.messengerMessageId,
    createdAt: now,
    sentAt: now,
    deliveredAt: null,
    readAt: null,
    editedAt: null,
    deletedAt: null,
  };
  await tx.messages.insert(message);
  await messageAddedEvent(tx, deps.clock, message, chat, arriving.sender);
  return { message_id: message.id, chat_id: arriving.chatId };
}

