import type { FailureReason, MessageStatus } from '../../../contract/messages.ts';
import { AppError } from '../errors.ts';
import { messageStatusEvent } from './message-events.ts';
import type { MessageDeps, MessageRecord } from './ports.ts';
import { advances } from './status.ts';

export const messageNotFound = (messageId: string): AppError => new AppError('MESSAGE_NOT_FOUND', 'Message not found', { message_id: messageId });

/**
 * The messenger reports on an outbound message (delivered, read, failed). Status only moves forward; a late
 * receipt is ignored. Answers the message's status afterwards.
 */
export async function messageStatusReported(
  deps: MessageDeps,
  accountId: string,
  messageId: string,
  report: { status: Extract<MessageStatus, 'delivered' | 'read' | 'failed'>; reason: FailureReason | null },
): Promise<{ message_id: string; status: MessageStatus; reason: FailureReason | null; changed: boolean }> {
  return deps.store.transaction(async (tx) => {
    const message = await tx.messages.getForUpdate(messageId);
    if (!message || message.accountId !== accountId || message.direction !== 'outbound') throw messageNotFound(messageId);
    if (!advances(message.status, report.status)) return { message_id: message.id, status: message.status, reason: message.reason, changed: false };
    const now = deps.clock.now();
    const next: MessageRecord = {
      ...message,
      status: report.status,
      reason: report.status === 'failed' ? (report.reason ?? 'unknown_error') : null,
      deliveredAt: report.status === 'delivered' || report.status === 'read' ? (message.deliveredAt ?? now) : message.deliveredAt,
      readAt: report.status === 'read' ? now : message.readAt,
    };
    await tx.messages.update(next);
    await messageStatusEvent(tx, deps.clock, next);
    return { message_id: next.id, status: next.status, reason: next.reason, changed: true };
  });
}
