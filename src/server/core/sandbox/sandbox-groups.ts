import { randomInt } from 'node:crypto';
import type { ChatType } from '../../../contract/channels.ts';
import type { CreateGroupBody, GroupMembersBody } from '../../../contract/sandbox.ts';
import { channelNotFound } from '../channels/channel-steps.ts';
import { AppError, validationError } from '../errors.ts';
import { groupReported, type GroupView } from '../groups/group-changes.ts';
import type { MessageDeps } from '../messages/ports.ts';

/** The sandbox network's group chats: created, joined, left, renamed on command. */

const newId = (prefix: string) => `${prefix}${randomInt(1e9, 1e10)}`;

async function groupChat(deps: MessageDeps, accountId: string, channelId: string, groupId: string) {
  const channel = await deps.store.channels.get(accountId, channelId);
  if (!channel) throw channelNotFound(channelId);
  for (const chatType of deps.rules[channel.transport].capabilities.group_chat_types) {
    const chat = await deps.store.chats.findByMessengerId(channelId, chatType, groupId);
    if (chat) return chat;
  }
  throw new AppError('CHAT_NOT_FOUND', 'Group chat not found', { group_id: groupId });
}

export async function sandboxCreateGroup(deps: MessageDeps, accountId: string, channelId: string, body: CreateGroupBody): Promise<GroupView> {
  const channel = await deps.store.channels.get(accountId, channelId);
  if (!channel) throw channelNotFound(channelId);
  if (!deps.rules[channel.transport].capabilities.group_chat_types.includes(body.chat_type)) {
    throw validationError([{ field: 'chat_type', message: `${channel.transport} channels have no ${body.chat_type} chats` }]);
  }
  const groupId = newId('g');
  await deps.store.sandbox.setCustomer(channelId, body.chat_type, groupId, { state: 'ok', wroteFirst: true });
  return groupReported(deps, accountId, channelId, {
    chatType: body.chat_type as ChatType,
    chatId: groupId,
    name: body.name,
    members: (body.members ?? []).map((m) => ({ memberId: newId('m'), name: m.name, avatarUrl: null, status: 'in_group' })),
  });
}

export async function sandboxGroupMembers(deps: MessageDeps, accountId: string, channelId: string, groupId: string, body: GroupMembersBody): Promise<GroupView> {
  const chat = await groupChat(deps, accountId, channelId, groupId);
  const known = new Map((await deps.store.groups.members(chat.id)).map((m) => [m.memberId, m]));
  const members = body.members.map((m, i) => {
    const before = m.group_member_id ? known.get(m.group_member_id) : undefined;
    if (m.group_member_id && !before) throw validationError([{ field: `members.${i}.group_member_id`, message: 'is not a member of this group' }]);
    return { memberId: m.group_member_id ?? newId('m'), name: m.name ?? before?.name ?? null, avatarUrl: before?.avatarUrl ?? null, status: m.status };
  });
  return groupReported(deps, accountId, channelId, { chatType: chat.chatType, chatId: groupId, members });
}

export async function sandboxUpdateGroup(
  deps: MessageDeps,
  accountId: string,
  channelId: string,
  groupId: string,
  body: { name?: string; avatar_url?: string | null },
): Promise<GroupView> {
  const chat = await groupChat(deps, accountId, channelId, groupId);
  return groupReported(deps, accountId, channelId, { chatType: chat.chatType, chatId: groupId, name: body.name, avatarUrl: body.avatar_url });
}
