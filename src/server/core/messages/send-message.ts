import type { FailureReason } from '../../../contract/messages.ts';
import type { ChannelRecord } from '../channels/ports.ts';
import type { TransactionScope } from '../ports.ts';
import { messageAddedEvent, messageStatusEvent } from './message-events.ts';
import { TransientSendError, type ChatRecord, type MessageDeps, type MessageRecord, type SendOutcome } from './ports.ts';

/** Why a message cannot leave through a channel that is no longer active. */
function channelUnavailable(channel: ChannelRecord | undefined): FailureReason | null {
  if (!channel) return 'message_channel_unavailable';
  if (channel.state.status === 'active') return null;
  return channel.state.reason === 'blocked' ? 'channel_blocked' : 'message_channel_unavailable';
}

/**
 * A pending chat learned its messenger id. When that chat already exists (the customer wrote meanwhile, or an
 * earlier send resolved it), the pending one folds into it.
 */
async function resolveChat(tx: TransactionScope, chat: ChatRecord, chatId: string): Promise<ChatRecord> {
  const existing = await tx.chats.findByMessengerId(chat.channelId, chat.chatType, chatId);
  if (existing && existing.id !== chat.id) {
    await tx.messages.moveToChat(chat.id, existing.id);
    await tx.chats.remove(chat.id);
    const merged = { ...existing, username: existing.username ?? chat.username, phone: existing.phone ?? chat.phone, lastMessageAt: chat.lastMessageAt };
    await tx.chats.update(merged);
    return merged;
  }
  const resolved = { ...chat, chatId };
  await tx.chats.update(resolved);
  return resolved;
}

/** Records the messenger's answer, once: a second run finds the message no longer `accepted` and does nothing. */
async function recordOutcome(deps: MessageDeps, messageId: string, outcome: SendOutcome): Promise<void> {
  await deps.store.transaction(async (tx) => {
    const message = await tx.messages.getForUpdate(messageId);
    if (message?.status !== 'accepted') return;
    const now = deps.clock.now();
    if (outcome.kind === 'failed') {
      const failed: MessageRecord = { ...message, status: 'failed', reason: outcome.reason };
      await tx.messages.update(failed);
      await messageStatusEvent(tx, deps.clock, failed);
      return;
    }
    let chat = await tx.chats.get(message.accountId, message.chatRef);
    const learnedChat = chat !== undefined && chat.chatId === null;
    if (chat && learnedChat) chat = await resolveChat(tx, chat, outcome.chatId);
    const sent: MessageRecord = { ...message, chatRef: chat?.id ?? message.chatRef, status: 'sent', messengerMessageId: outcome.messengerMessageId, sentAt: now };
    await tx.messages.update(sent);
    await messageStatusEvent(tx, deps.clock, sent);
    // The interface reports the customer's chat_id of a send that had none through message.add.
    if (chat && learnedChat) await messageAddedEvent(tx, deps.clock, sent, chat);
    if (outcome.delivered) {
      const delivered: MessageRecord = { ...sent, status: 'delivered', deliveredAt: now };
      await tx.messages.update(delivered);
      await messageStatusEvent(tx, deps.clock, delivered);
    }
  });
}

/**
 * The send job: hands one accepted message to the messenger and records the answer. Network failures are
 * retried by the queue with the same request id (the driver is idempotent per request); on the last attempt
 * they become `failed` / `network_error` (anything unexpected `unknown_error`), so every accepted message ends
 * with a final status.
 */
export async function sendAcceptedMessage(deps: MessageDeps, messageId: string, lastAttempt: boolean): Promise<'sent' | 'failed' | 'skipped'> {
  const message = await deps.store.messages.getForUpdate(messageId);
  if (message?.status !== 'accepted' || !message.requestId) return 'skipped';
  const channel = await deps.store.channels.get(message.accountId, message.channelId);
  const unavailable = channelUnavailable(channel);
  const chat = await deps.store.chats.get(message.accountId, message.chatRef);
  if (unavailable || !channel || !chat) {
    await recordOutcome(deps, messageId, { kind: 'failed', reason: unavailable ?? 'message_channel_unavailable' });
    return 'failed';
  }
  const quoted = message.quotedMessageId ? await deps.store.messages.get(message.accountId, message.quotedMessageId) : undefined;
  let outcome: SendOutcome;
  try {
    outcome = await deps.driver.send({
      requestId: message.requestId,
      channelId: channel.id,
      transport: channel.transport,
      chatType: chat.chatType,
      chatId: chat.chatId,
      username: chat.username,
      phone: chat.phone,
      text: message.text,
      attachment: message.attachment,
      template: message.template,
      keyboard: message.keyboard,
      quotedMessengerId: quoted?.messengerMessageId ?? null,
    });
  } catch (err) {
    // A failed job would hold back the chat's later messages for good: the last attempt settles as failed.
    if (!lastAttempt) throw err;
    outcome = { kind: 'failed', reason: err instanceof TransientSendError ? 'network_error' : 'unknown_error' };
  }
  await recordOutcome(deps, messageId, outcome);
  return outcome.kind;
}
