import type { UserRole } from '../../../contract/settings.ts';

export interface RoleRecord {
  channelId: string;
  userId: string;
  role: UserRole;
  allowGetNewClients: boolean;
}

export interface RightsFlags {
  hidePhoneNumbersForUserIds: string[];
  pushInputOutputMessageEventsForManagers: boolean;
}

export interface UserRights {
  anyRoles: boolean;
  own: { channelId: string; role: UserRole }[];
  hidePhones: boolean;
}

/** The account's rights: roles per channel and user, and account-wide flags. */
export interface RightsRepository {
  roles(accountId: string): Promise<RoleRecord[]>;
  /** Replaces every role of the account. */
  replaceRoles(accountId: string, roles: RoleRecord[]): Promise<void>;
  flags(accountId: string): Promise<RightsFlags | undefined>;
  /**
   * What a frame request needs of the rights in one round trip: whether the account sets any role at all, the
   * user's own roles (none when `userId` is null) and whether the user's phone numbers are hidden.
   */
  userRights(accountId: string, userId: string | null): Promise<UserRights>;
  saveFlags(accountId: string, flags: RightsFlags, at: Date): Promise<void>;
  /** Who got the customer of a chat, when someone did. */
  assigneeOf(chatRef: string): Promise<string | undefined>;
  /** Gives the chat's customer to `userId`, unless someone has it already. */
  assign(accountId: string, chatRef: string, userId: string, at: Date): Promise<void>;
  /** How many chats each of `userIds` was given, for spreading new customers evenly. */
  assignedCounts(accountId: string, userIds: string[]): Promise<Map<string, number>>;
  /** Of the chats of these channels (all the account's when null), those waiting for an answer, with who got them. */
  waitingChats(accountId: string, channelIds: string[] | null): Promise<{ chatRef: string; assignee: string | null; lastMessageAt: Date | null }[]>;
  /** Sets every chat's unanswered counter of the account (or only the chat `chatRef`) to zero; how many chats changed. */
  clearUnanswered(accountId: string, chatRef?: string): Promise<number>;
}
