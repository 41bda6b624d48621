import type { ChatType, Transport } from '../../../contract/channels.ts';
import type { Attachment } from '../../../contract/messages.ts';
import type { ChannelRecord } from '../channels/ports.ts';
import { groupChatUpdated } from '../groups/group-changes.ts';
import type { TransactionScope } from '../ports.ts';
import { onActiveChannel, recordArrival, type ArrivingMessage, type PlatformOutcome } from './inbound.ts';
import { messageEditedEvent } from './message-events.ts';
import type { ChatRecord, MessageDeps, MessageRecord } from './ports.ts';

/**
 * A message the messenger says was changed, as it is now: its words (`text`) or its file (`attachment`). The
 * words of a file recorded as a message of their own (a caption) are that message's.
 */
export interface ReportedEdit {
  chatType: ChatType;
  chatId: string;
  messengerMessageId: string;
  text?: string;
  attachment?: Attachment;
  /**
   * Whether the file recorded is the one reported, which then was not replaced. A platform may give one file new
   * links (Telegram re-issues file ids; its `file_unique_id` stays), so it says; without it, by the link.
   */
  isRecordedFile?(recorded: Attachment): boolean;
  /**
   * Words given to a message that had none (a caption added to a file): when the message `partOf` is recorded and
   * this one is not, it arrives as new, recorded as any arrival is (`message.add`).
   */
  added?: { partOf: string; arriving: ArrivingMessage };
  /**
   * When the platform says the edit was made (MAX's update time). A platform may send an older edit again after a
   * newer one (it retries an update whose answer failed): one made before the message's last recorded edit changes
   * nothing. The message's `editedAt` becomes this time, so that edits are compared by the platform's clock alone.
   * Without it the edit is taken as the latest, at the gateway's time.
   */
  editedAt?: Date;
}

/** The messenger gave a chat another id (a Telegram group that became a supergroup). */
export interface ChatMove {
  chatType: ChatType;
  from: string;
  to: string;
}

/**
 * One reported edit, on a channel locked by the caller's transaction; the message is locked too, as an edit through
 * the API locks it. A message never recorded, or deleted, stays as it is, as does one edited since; words added to a
 * recorded message that had none arrive.
 */
export async function recordEdit(tx: TransactionScope, deps: MessageDeps, channel: ChannelRecord, edit: ReportedEdit): Promise<void> {
  const chat = await tx.chats.findByMessengerId(channel.id, edit.chatType, edit.chatId);
  if (!chat) return;
  const before = await tx.messages.findByMessengerId(chat.id, edit.messengerMessageId, 'for update');
  if (!before) {
    // Words for a message that has none: where the message they belong to holds words itself, they are there.
    const part = edit.added && (await tx.messages.findByMessengerId(chat.id, edit.added.partOf));
    if (edit.added && part && part.text === null) await recordArrival(tx, deps, channel, edit.added.arriving);
    return;
  }
  if (before.deletedAt) return;
  if (edit.editedAt && before.editedAt && edit.editedAt.getTime() < before.editedAt.getTime()) return;
  // Words replace words and a file a file: a message keeps its kind.
  const text = edit.text !== undefined && before.text !== null ? edit.text : before.text;
  const sameFile = (recorded: Attachment, reported: Attachment) => (edit.isRecordedFile ? edit.isRecordedFile(recorded) : recorded.url === reported.url);
  const attachment = edit.attachment !== undefined && before.attachment !== null && !sameFile(before.attachment, edit.attachment) ? edit.attachment : before.attachment;
  if (text === before.text && attachment === before.attachment) return;
  const after: MessageRecord = { ...before, text, attachment, editedAt: edit.editedAt ?? deps.clock.now() };
  await tx.messages.update(after);
  await messageEditedEvent(tx, deps.clock, before, after);
}

/**
 * Messages a platform says were edited (a customer changed what they wrote), for a channel it knows only by id:
 * each recorded message changes and gets `message.edit`, as an edit through the API does, in one transaction.
 */
export async function platformEdited(deps: MessageDeps, channelId: string, edits: ReportedEdit[]): Promise<PlatformOutcome> {
  return onActiveChannel(deps, channelId, async (tx, channel) => {
    for (const edit of edits) await recordEdit(tx, deps, channel, edit);
  });
}

/**
 * A chat of the channel takes the id the messenger moved it to, keeping its history and the gateway's id; a
 * group tells the CRM with `group_chat.update` under its new `group_id`, naming the old one (`old_group_id`). The
 * new id numbers its messages afresh, so the history's numbers are marked as the old id's (`<old id>/<number>`,
 * isMovedMessengerId): a message of the new id is never taken for an old one. Nothing moves when the chat is not
 * known by the old id (never, or moved already) or another chat already has the new one (its updates came
 * first, or a send to it created it): the two are not merged, and the old one keeps its id. Only the chat's id is
 * written. The caller holds the channel's lock. The chat as moved, if it was.
 */
export async function moveChat(tx: TransactionScope, deps: Pick<MessageDeps, 'clock' | 'rules'>, channel: { id: string; transport: Transport }, move: ChatMove): Promise<ChatRecord | undefined> {
  if (move.from === move.to) return undefined;
  const chat = await tx.chats.findByMessengerId(channel.id, move.chatType, move.from);
  if (!chat || (await tx.chats.findByMessengerId(channel.id, move.chatType, move.to))) return undefined;
  if (!(await tx.chats.moveMessengerId(chat.id, move.from, move.to))) return undefined;
  await tx.messages.markMovedFrom(chat.id, move.from);
  if (deps.rules[channel.transport].capabilities.group_chat_types.includes(move.chatType)) {
    await groupChatUpdated(tx, deps.clock, {
      accountId: chat.accountId,
      chatRef: chat.id,
      groupId: move.to,
      name: chat.name,
      avatarUrl: await tx.groups.avatar(chat.id),
      oldGroupId: move.from,
    });
  }
  return { ...chat, chatId: move.to };
}

/** A platform reports a chat's new id, for a channel it knows only by id. */
export async function platformMovedChat(deps: MessageDeps, channelId: string, move: ChatMove): Promise<PlatformOutcome> {
  return onActiveChannel(deps, channelId, async (tx, channel) => {
    await moveChat(tx, deps, channel, move);
  });
}
