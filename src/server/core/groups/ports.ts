export const memberStatuses = ['in_group', 'invited', 'unknown', 'deleted', 'not_exists'] as const;
export type MemberStatus = (typeof memberStatuses)[number];

export interface GroupMember {
  memberId: string;
  name: string | null;
  avatarUrl: string | null;
  status: MemberStatus;
}

/** Members and picture of group chats; the chat row itself (name, ids) is the chat repository's. */
export interface GroupRepository {
  members(chatRef: string): Promise<GroupMember[]>;
  upsertMembers(chatRef: string, members: GroupMember[]): Promise<void>;
  avatar(chatRef: string): Promise<string | null>;
  setAvatar(chatRef: string, url: string | null): Promise<void>;
}
