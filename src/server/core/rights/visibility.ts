import type { Store } from '../ports.ts';

/**
 * What the account's rights let one CRM user see in the chat frame. `channels` null: every channel (no role
 * is set in the account, or the frame names no user); otherwise the channels the user has a role on, which
 * may be none.
 */
export interface FrameRights {
  channels: ReadonlySet<string> | null;
  hidePhones: boolean;
  /** Channels the user only reads (auditor): quality control writes nothing to customers. */
  readOnly?: ReadonlySet<string>;
}

export const unrestricted: FrameRights = { channels: null, hidePhones: false };

export async function rightsOf(store: Pick<Store, 'rights'>, accountId: string, userId: string | null): Promise<FrameRights> {
  const { anyRoles, own, hidePhones } = await store.rights.userRights(accountId, userId);
  if (!anyRoles || userId === null) return { channels: null, hidePhones };
  return { channels: new Set(own.map((r) => r.channelId)), hidePhones, readOnly: new Set(own.filter((r) => r.role === 'auditor').map((r) => r.channelId)) };
}

export const channelAllowed = (rights: FrameRights, channelId: string | null | undefined): boolean =>
  rights.channels === null || (channelId !== null && channelId !== undefined && rights.channels.has(channelId));

export const isRestricted = (rights: FrameRights): boolean => rights.channels !== null || rights.hidePhones;

export const mayWrite = (rights: FrameRights, channelId: string): boolean => channelAllowed(rights, channelId) && !rights.readOnly?.has(channelId);
