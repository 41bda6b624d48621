import type { ChatType } from '../../../contract/channels.ts';
import type { ChannelRecord } from '../channels/ports.ts';
import type { TransactionScope } from '../ports.ts';
import { onActiveChannel, recordArrival, type ArrivingMessage, type PlatformOutcome } from './inbound.ts';
import { messageDeletedEvent } from './message-events.ts';
import { recordEdit, type ReportedEdit } from './platform-changes.ts';
import type { MessageDeps } from './ports.ts';
import { recordReportedReaction, type ReportedReaction } from './reactions.ts';
import { recordRead, recordStatus, type ReportedRead, type ReportedStatus } from './receipts.ts';

/** A message the customer took back (unsent), by the messenger's number: the message and every part recorded of it. */
export interface ReportedDelete {
  chatType: ChatType;
  chatId: string;
  messengerMessageId: string;
}

/** What a platform reports of a channel's chats, one of several it posts at once. */
export type PlatformReport =
  | { kind: 'message'; message: ArrivingMessage }
  | { kind: 'edit'; edit: ReportedEdit }
  | { kind: 'delete'; delete: ReportedDelete }
  | { kind: 'read'; read: ReportedRead }
  | { kind: 'status'; status: ReportedStatus }
  | { kind: 'reaction'; reaction: ReportedReaction };

/**
 * A customer took a message back: each of its parts not deleted yet gets the deleted mark and `message.delete`
 * (`crm_user_id` null), as a delete through the API does; its words stay in the store for the export and the frame.
 * A message never recorded is left alone.
 */
async function recordDelete(tx: TransactionScope, deps: Pick<MessageDeps, 'clock'>, channel: ChannelRecord, report: ReportedDelete): Promise<void> {
  const chat = await tx.chats.findByMessengerId(channel.id, report.chatType, report.chatId);
  if (!chat) return;
  const now = deps.clock.now();
  for (const message of await tx.messages.findWithParts(chat.id, report.messengerMessageId)) {
    if (message.deletedAt) continue;
    await tx.messages.update({ ...message, deletedAt: now });
    await messageDeletedEvent(tx, deps.clock, message, null);
  }
}

/**
 * Whether an echo must wait: the platform's copy of one of the account's messages that is not recorded by its
 * number, in a chat with a send under way (a sender holds it: the platform has it, or its answer is still to be
 * recorded). It may be that very send, whose answer (and number) the gateway has not recorded yet; recorded now it
 * would be a second message. Sent again later, it is found by its number, or, when it was written elsewhere (the
 * platform's own app), recorded then. A send waiting for its turn or its retry holds nothing: the platform has not
 * taken it, so no echo of it can come; and a wait lasts no longer than a send's lease.
 */
async function echoMustWait(tx: TransactionScope, channel: ChannelRecord, message: ArrivingMessage): Promise<boolean> {
  if (!message.echo) return false;
  const chat = await tx.chats.findByMessengerId(channel.id, message.chatType, message.chatId);
  if (!chat) return false;
  // The parts of one message (`<number>:<part>`) wait together, or are recorded together.
  const number = message.messengerMessageId.split(':')[0]!;
  if ((await tx.messages.findWithParts(chat.id, number)).length > 0) return false;
  return tx.messages.hasSendUnderWay(chat.id);
}

/**
 * Whether an echo is a part of one of the gateway's own sends: the platform numbers a message with a file and words
 * as one (`<number>`), which the driver reads back as parts (`<number>:caption`, `<number>:1`); a send of the chat
 * frame's, a file with its caption, is recorded whole under `<number>`, so its echo's other parts are that send too.
 */
async function echoOfOwnSend(tx: TransactionScope, channel: ChannelRecord, message: ArrivingMessage): Promise<boolean> {
  const number = message.messengerMessageId.split(':')[0]!;
  if (!message.echo || number === message.messengerMessageId) return false;
  const chat = await tx.chats.findByMessengerId(channel.id, message.chatType, message.chatId);
  const whole = chat ? await tx.messages.findByMessengerId(chat.id, number) : undefined;
  return whole !== undefined && whole.requestId !== null;
}

/** Whether a report on an unknown number may be of the send a sender holds in its chat now. */
async function statusMustWait(tx: TransactionScope, channel: ChannelRecord, report: ReportedStatus): Promise<boolean> {
  const chat = await tx.chats.findByMessengerId(channel.id, report.chatType, report.chatId);
  return chat ? tx.messages.hasSendUnderWay(chat.id) : false;
}

/**
 * What a platform posted for one channel it knows only by id (its account's messages, echoes, edits, deletes and
 * reads, in the order given), recorded in one transaction, each as its own path records it. `not_yet` when an echo
 * had to wait (echoMustWait) or the channel is between states: the platform should post it again later; what could
 * be recorded is, and found again then rather than recorded twice. `guard` runs first in the transaction (a session's
 * fence: it throws, and nothing is recorded, when the lease the reports were heard under is stale).
 */
export async function platformReports(
  deps: MessageDeps,
  channelId: string,
  reports: readonly PlatformReport[],
  guard?: (tx: TransactionScope) => Promise<void>,
): Promise<PlatformOutcome> {
  let waiting = false;
  const outcome = await onActiveChannel(deps, channelId, async (tx, channel) => {
    for (const report of reports) {
      switch (report.kind) {
        case 'message':
          if (await echoMustWait(tx, channel, report.message)) waiting = true;
          else if (!(await echoOfOwnSend(tx, channel, report.message))) await recordArrival(tx, deps, channel, report.message);
          break;
        case 'edit':
          await recordEdit(tx, deps, channel, report.edit);
          break;
        case 'delete':
          await recordDelete(tx, deps, channel, report.delete);
          break;
        case 'read':
          await recordRead(tx, deps, channel, report.read);
          break;
        case 'reaction':
          await recordReportedReaction(tx, deps, channel, report.reaction);
          break;
        case 'status':
          // A report on a send whose answer (and number) is not recorded yet, while a sender holds a send of the
          // chat: posted again, it finds the message. Otherwise a report on no message recorded is dropped.
          if ((await recordStatus(tx, deps, channel, report.status)) === 'unknown' && (await statusMustWait(tx, channel, report.status))) waiting = true;
          break;
      }
    }
  }, guard);
  return outcome === 'recorded' && waiting ? 'not_yet' : outcome;
}
