import type { ChatType } from '../../../contract/channels.ts';
import type { FailureReason, MessageStatus } from '../../../contract/messages.ts';
import { AppError } from '../errors.ts';
import { messageStatusEvent } from './message-events.ts';
import type { ChannelRecord } from '../channels/ports.ts';
import type { TransactionScope } from '../ports.ts';
import type { MessageDeps, MessageRecord } from './ports.ts';
import { advances } from './status.ts';

export const messageNotFound = (messageId: string): AppError => new AppError('MESSAGE_NOT_FOUND', 'Message not found', { message_id: messageId });

type Report = { status: Extract<MessageStatus, 'delivered' | 'read' | 'failed'>; reason: FailureReason | null };

/** A message as the messenger's report leaves it (the caller checked that the status advances). */
function reportedState(message: MessageRecord, report: Report, now: Date): MessageRecord {
  return {
    ...message,
    status: report.status,
    reason: report.status === 'failed' ? (report.reason ?? 'unknown_error') : null,
    deliveredAt: report.status === 'delivered' || report.status === 'read' ? (message.deliveredAt ?? now) : message.deliveredAt,
    readAt: report.status === 'read' ? now : message.readAt,
  };
}

/**
 * The messenger reports on an outbound message (delivered, read, failed). Status only moves forward; a late
 * receipt is ignored. Answers the message's status afterwards.
 */
export async function messageStatusReported(
  deps: MessageDeps,
  accountId: string,
  messageId: string,
  report: Report,
): Promise<{ message_id: string; status: MessageStatus; reason: FailureReason | null; changed: boolean }> {
  return deps.store.transaction(async (tx) => {
    const message = await tx.messages.getForUpdate(messageId);
    if (!message || message.accountId !== accountId || message.direction !== 'outbound') throw messageNotFound(messageId);
    if (!advances(message.status, report.status)) return { message_id: message.id, status: message.status, reason: message.reason, changed: false };
    const next = reportedState(message, report, deps.clock.now());
    await tx.messages.update(next);
    await messageStatusEvent(tx, deps.clock, next);
    return { message_id: next.id, status: next.status, reason: next.reason, changed: true };
  });
}

/** A customer read the chat up to a message: how many outbound messages a report reads at most (the oldest go first). */
const READ_AT_ONCE = 500;

/** A messenger's report that the customer read a chat up to one of the account's messages there (Instagram's `read.mid`). */
export interface ReportedRead {
  chatType: ChatType;
  chatId: string;
  /** The messenger's number of the last outbound message read. */
  messengerMessageId: string;
}

/**
 * A customer read a chat up to an outbound message (on a channel locked by the caller's transaction): that message
 * and the chat's earlier outbound messages not read yet become `read`, each with its `message.status_update`, in
 * the order they were sent. Status only moves forward: one already read, or failed, stays as it is. A report naming
 * a message never recorded, or a customer's own, reads nothing.
 */
export async function recordRead(tx: TransactionScope, deps: Pick<MessageDeps, 'clock'>, channel: ChannelRecord, read: ReportedRead): Promise<void> {
  const chat = await tx.chats.findByMessengerId(channel.id, read.chatType, read.chatId);
  const through = chat && (await tx.messages.findByMessengerId(chat.id, read.messengerMessageId));
  if (!chat || !through || through.direction !== 'outbound') return;
  const now = deps.clock.now();
  for (const message of await tx.messages.outboundUnreadThrough(chat.id, through.id, READ_AT_ONCE)) {
    if (!advances(message.status, 'read')) continue;
    const next = reportedState(message, { status: 'read', reason: null }, now);
    await tx.messages.update(next);
    await messageStatusEvent(tx, deps.clock, next);
  }
}

/** A messenger's report on one outbound message by its number (WhatsApp's `statuses[]`): delivered, read, or failed with its reason. */
export interface ReportedStatus {
  chatType: ChatType;
  chatId: string;
  messengerMessageId: string;
  status: Extract<MessageStatus, 'delivered' | 'read' | 'failed'>;
  reason: FailureReason | null;
}

/**
 * A report on one outbound message (on a channel locked by the caller's transaction): it moves forward only (a
 * delivery after the read, or anything after a failure, changes nothing), with its `message.status_update`.
 * `unknown` when no message of the chat has that number (the send's answer, and so its number, may not be recorded
 * yet), else `recorded`.
 */
export async function recordStatus(tx: TransactionScope, deps: Pick<MessageDeps, 'clock'>, channel: ChannelRecord, report: ReportedStatus): Promise<'recorded' | 'unknown'> {
  const chat = await tx.chats.findByMessengerId(channel.id, report.chatType, report.chatId);
  const message = chat && (await tx.messages.findByMessengerId(chat.id, report.messengerMessageId, 'for update'));
  if (!message) return 'unknown';
  if (message.direction !== 'outbound' || !advances(message.status, report.status)) return 'recorded';
  const next = reportedState(message, { status: report.status, reason: report.reason }, deps.clock.now());
  await tx.messages.update(next);
  await messageStatusEvent(tx, deps.clock, next);
  return 'recorded';
}
