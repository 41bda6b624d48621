import type { FailureReason } from '../../../contract/messages.ts';
import type { ChannelRecord } from '../channels/ports.ts';
import { sessionReconnecting } from '../channels/session-reachability.ts';
import { pacedTurns } from '../pacing/paced-sends.ts';
import { newEventRecords } from '../events/record-event.ts';
import type { TransactionScope } from '../ports.ts';
import { messageAddedEvent, messageStatusEvent, statusUpdateOf } from './message-events.ts';
import { moveChat } from './platform-changes.ts';
import { TransientSendError, type ChatRecord, type ClaimedSend, type MessageDeps, type MessageRecord, type SendOutcome } from './ports.ts';

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

/**
 * The states a message passes through on the messenger's answer, in order: `failed`, or `sent` and (when the
 * messenger reported it at once) `delivered`. Each gets its status event; the last is what is stored.
 */
function answeredStates(message: MessageRecord, outcome: SendOutcome, now: Date): MessageRecord[] {
  if (outcome.kind === 'failed') return [{ ...message, status: 'failed', reason: outcome.reason }];
  const sent: MessageRecord = { ...message, status: 'sent', messengerMessageId: outcome.messengerMessageId, sentAt: now };
  return outcome.delivered ? [sent, { ...sent, status: 'delivered', deliveredAt: now }] : [sent];
}

/**
 * Records a send whose answer changes its chat, once (a second run finds the message no longer `accepted`): a
 * pending chat (username or phone) learned its messenger id, and may fold into a chat that exists; or the messenger
 * moved the chat to another id (moveChat: when another chat has that id already, the old chat keeps its own and
 * the send is recorded all the same). This goes on its own, locking the channel and then the message, in the order
 * the other paths that change a channel's chats lock them.
 */
async function recordAnswerChangingChat(deps: MessageDeps, channel: ChannelRecord, messageId: string, outcome: Extract<SendOutcome, { kind: 'sent' }>): Promise<void> {
  await deps.store.transaction(async (tx) => {
    const locked = (await tx.channels.getByIdForUpdate(channel.id)) ?? channel;
    const message = await tx.messages.getForUpdate(messageId);
    if (message?.status !== 'accepted') return;
    const pending = await tx.chats.get(message.accountId, message.chatRef);
    const chat = pending && pending.chatId === null ? await resolveChat(tx, pending, outcome.chatId) : undefined;
    if (pending?.chatId && outcome.chatMoved) await moveChat(tx, deps, locked, { chatType: pending.chatType, from: pending.chatId, to: outcome.chatId });
    const [sent, ...later] = answeredStates({ ...message, chatRef: chat?.id ?? message.chatRef }, outcome, deps.clock.now());
    await messageStatusEvent(tx, deps.clock, sent!);
    // The interface reports the customer's chat_id of a send that had none through message.add.
    if (chat) await messageAddedEvent(tx, deps.clock, sent!, chat);
    for (const state of later) await messageStatusEvent(tx, deps.clock, state);
    await tx.messages.update(later.at(-1) ?? sent!);
  });
}

/** `held`: pacing put the send back until its channel may send it (it is not a try). */
export type SendResult = 'sent' | 'failed' | 'skipped' | 'held';

interface Decided {
  messageId: string;
  outcome: SendOutcome;
  /**
   * The answer changes the chat (it still waited for its messenger id, or the messenger moved it): recorded on its
   * own (recordAnswerChangingChat), with the channel it was sent through.
   */
  changesChat: ChannelRecord | null;
}

/** What the outcomes of a batch change: each message's answered state and its status events, in one statement. */
async function recordOutcomes(deps: MessageDeps, messages: Map<string, MessageRecord>, decided: Decided[]): Promise<void> {
  const answers = decided.map(({ messageId, outcome }) => {
    const states = answeredStates(messages.get(messageId)!, outcome, deps.clock.now());
    return { message: states.at(-1)!, events: newEventRecords(deps.clock, states.map(statusUpdateOf)) };
  });
  await deps.store.sends.recordAnswers(answers);
}

/** Tries per message before a network failure becomes its final status (`failed` / `network_error`). */
export const MAX_SEND_ATTEMPTS = 9;

/** Waits between tries: 1 s, doubling, at most 5 minutes (about 4 minutes over all nine). */
export const retryDelayMs = (attempt: number) => Math.min(2 ** (attempt - 1), 300) * 1000;

/**
 * The claimed chat heads of one batch (each of a different chat): hands each to the messenger, in parallel,
 * and records the answers together, so the database sees a few statements per batch rather than a dozen per
 * message. Network failures before the last try answer the error (the caller puts the send back, to go again
 * with the same request id: the driver is idempotent per request); on the last try they become `failed` /
 * `network_error` (anything unexpected `unknown_error`), so every accepted message ends with a final status.
 */
async function sendAcceptedMessages(deps: MessageDeps, claims: ClaimedSend[]): Promise<(SendResult | Error)[]> {
  const decided: Decided[] = [];
  // Personal channels' sends wait for their turn (src/server/core/pacing), one after another per channel.
  const paced = pacedTurns(deps, claims);
  const results = await Promise.all(
    claims.map(async ({ message, chat, channel, attempt }): Promise<SendResult | Error> => {
      if (message.status !== 'accepted' || !message.requestId) return 'skipped';
      // A session that is reconnecting holds its sends back rather than failing them (on the last try they fail as
      // a network error, as a send through a lost connection does).
      const waiting = channel && sessionReconnecting(deps.rules, channel);
      if (waiting && attempt < MAX_SEND_ATTEMPTS) return new TransientSendError('the channel’s session is reconnecting');
      if (waiting) {
        decided.push({ messageId: message.id, outcome: { kind: 'failed', reason: 'network_error' }, changesChat: null });
        return 'failed';
      }
      const unavailable = channelUnavailable(channel);
      if (unavailable || !channel) {
        decided.push({ messageId: message.id, outcome: { kind: 'failed', reason: unavailable ?? 'message_channel_unavailable' }, changesChat: null });
        return 'failed';
      }
      const turn = await paced.admit({ message, chat, channel, attempt }, channel);
      if (turn.kind === 'held') return 'held';
      if (turn.kind === 'held_too_long') {
        decided.push({ messageId: message.id, outcome: { kind: 'failed', reason: 'held_too_long' }, changesChat: null });
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
          sealedCredentials: channel.credentials,
          ...(turn.typingMs > 0 ? { typingMs: turn.typingMs } : {}),
        });
        await paced.answered(channel, outcome);
      } catch (err) {
        await paced.failed(channel, err);
        // A failed job would hold back the chat's later messages for good: the last attempt settles as failed.
        if (attempt < MAX_SEND_ATTEMPTS) return err instanceof Error ? err : new Error(String(err));
        outcome = { kind: 'failed', reason: err instanceof TransientSendError ? 'network_error' : 'unknown_error' };
      }
      const changesChat = outcome.kind === 'sent' && (chat.chatId === null || outcome.chatMoved === true);
      decided.push({ messageId: message.id, outcome, changesChat: changesChat ? channel : null });
      return outcome.kind;
    }),
  );
  await recordOutcomes(
    deps,
    new Map(claims.map((c) => [c.message.id, c.message])),
    decided.filter((d) => !d.changesChat),
  );
  for (const d of decided) if (d.changesChat && d.outcome.kind === 'sent') await recordAnswerChangingChat(deps, d.changesChat, d.messageId, d.outcome);
  return results;
}

/**
 * Sends claimed chat heads and records the answers; those that met a network failure before their last try
 * go back to the queue, due after their delay, still holding their chats' later messages behind them.
 * Answers when the earliest of those is due again (null: none went back).
 */
export async function sendClaimed(deps: MessageDeps, claims: ClaimedSend[]): Promise<Date | null> {
  // The backoff, or longer when the messenger said how long to wait (a rate limit's retry-after).
  const later = (c: ClaimedSend, err?: unknown) => {
    const asked = err instanceof TransientSendError && err.retryAfterMs !== null ? err.retryAfterMs : 0;
    return { messageId: c.message.id, at: new Date(deps.clock.now().getTime() + Math.max(retryDelayMs(c.attempt), asked)) };
  };
  const earliest = (items: { at: Date }[]) => (items.length === 0 ? null : new Date(Math.min(...items.map((i) => i.at.getTime()))));
  let results: (SendResult | Error)[];
  try {
    results = await sendAcceptedMessages(deps, claims);
  } catch (err) {
    // Recording failed (the database): the whole batch goes again after its delay; the driver is idempotent
    // per request id. Should even this fail, the leases run out and the sends are claimed again.
    await deps.store.sends.retryLater(claims.map((c) => later(c))).catch(() => {});
    throw err;
  }
  const retries = claims.flatMap((c, i) => (results[i] instanceof Error ? [later(c, results[i])] : []));
  await deps.store.sends.retryLater(retries);
  return earliest(retries);
}
