import { randomUUID } from 'node:crypto';
import type { ChatType } from '../../../contract/channels.ts';
import { channelNotFound } from '../channels/channel-steps.ts';
import { recordEvent } from '../events/record-event.ts';
import { chatOrderingKey } from '../messages/message-events.ts';
import type { ChatRecord, MessageDeps } from '../messages/ports.ts';
import type { Clock, TransactionScope } from '../ports.ts';
import type { GroupMember } from './ports.ts';

export interface GroupView {
  group_id: string;
  chat_type: ChatType;
  name: string | null;
  avatar_url: string | null;
  members: { group_member_id: string; name: string | null; avatar_url: string | null; status: GroupMember['status'] }[];
}

const memberView = (m: GroupMember) => ({ group_member_id: m.memberId, name: m.name, avatar_url: m.avatarUrl, status: m.status });

export interface GroupReport {
  chatType: ChatType;
  chatId: string;
  name?: string | null;
  avatarUrl?: string | null;
  /** Members that joined, left, were invited or renamed. */
  members?: GroupMember[];
}

/** What `group_chat.update` says of a group: as it is now, and the id it had when the messenger moved it to another. */
export interface GroupChatUpdate {
  accountId: string;
  /** The gateway's chat, whose events it is ordered with. */
  chatRef: string;
  groupId: string;
  name: string | null;
  avatarUrl: string | null;
  /** The group's id before the messenger gave it `groupId` (a Telegram group that became a supergroup). */
  oldGroupId?: string;
}

/**
 * `group_chat.update`: `{group_id, name, avatar_url}` (docs/decisions.md), and `old_group_id` when the group moved to a new
 * id, so that a CRM can carry what it keeps under the old one over to the new one.
 */
export function groupChatUpdated(tx: TransactionScope, clock: Clock, update: GroupChatUpdate) {
  return recordEvent(tx, clock, {
    accountId: update.accountId,
    name: 'group_chat.update',
    orderingKey: chatOrderingKey(update.chatRef),
    payload: {
      group_id: update.groupId,
      name: update.name,
      avatar_url: update.avatarUrl,
      ...(update.oldGroupId !== undefined ? { old_group_id: update.oldGroupId } : {}),
    },
  });
}

/**
 * The messenger reports a group chat: created, renamed, a new picture (`group_chat.update`), members that
 * joined, left or were renamed (`group_chat.memberships_update`, carrying the members that changed).
 */
export async function groupReported(deps: MessageDeps, accountId: string, channelId: string, report: GroupReport): Promise<GroupView> {
  return deps.store.transaction(async (tx) => {
    const channel = await tx.channels.getForUpdate(accountId, channelId);
    if (!channel) throw channelNotFound(channelId);
    const now = deps.clock.now();
    let chat = await tx.chats.findByMessengerId(channelId, report.chatType, report.chatId);
    const isNew = !chat;
    if (!chat) {
      chat = await tx.chats.insert({ id: randomUUID(), accountId, channelId, chatType: report.chatType, chatId: report.chatId, username: null, phone: null, name: report.name ?? null, unanswered: 0, lastMessageAt: null, createdAt: now } satisfies ChatRecord);
    }
    const avatarBefore = await tx.groups.avatar(chat.id);
    const renamed = report.name !== undefined && report.name !== chat.name;
    const newAvatar = report.avatarUrl !== undefined && report.avatarUrl !== avatarBefore;
    if (renamed) await tx.chats.update((chat = { ...chat, name: report.name ?? null }));
    if (newAvatar) await tx.groups.setAvatar(chat.id, report.avatarUrl ?? null);
    const avatarUrl = newAvatar ? (report.avatarUrl ?? null) : avatarBefore;
    const event = { accountId, orderingKey: chatOrderingKey(chat.id) };
    if (isNew || renamed || newAvatar) {
      await groupChatUpdated(tx, deps.clock, { accountId, chatRef: chat.id, groupId: report.chatId, name: chat.name, avatarUrl });
    }
    if (report.members && report.members.length > 0) {
      await tx.groups.upsertMembers(chat.id, report.members);
      await recordEvent(tx, deps.clock, {
        ...event,
        name: 'group_chat.memberships_update',
        payload: { group_id: report.chatId, members: report.members.map(memberView) },
      });
    }
    const members = await tx.groups.members(chat.id);
    return { group_id: report.chatId, chat_type: report.chatType, name: chat.name, avatar_url: avatarUrl, members: members.map(memberView) };
  });
}
