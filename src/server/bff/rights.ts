import type { EmbedSessionRecord } from '../core/embedding/ports.ts';
import { AppError } from '../core/errors.ts';
import type { Store } from '../core/ports.ts';
import { channelAllowed, mayWrite, rightsOf, type FrameRights } from '../core/rights/visibility.ts';

/** The account's rights as they apply to the session's CRM user, read fresh for each request. */
export const frameRights = (store: Pick<Store, 'rights'>, session: EmbedSessionRecord): Promise<FrameRights> =>
  rightsOf(store, session.accountId, session.user?.id ?? null);

/** A chat of a channel the user has no role on is reported as not found, like one outside a card. */
export function assertChannelAllowed(rights: FrameRights, channelId: string, notFound: 'CHAT_NOT_FOUND' | 'MESSAGE_NOT_FOUND' = 'CHAT_NOT_FOUND'): void {
  if (!channelAllowed(rights, channelId)) throw new AppError(notFound, notFound === 'CHAT_NOT_FOUND' ? 'Chat not found' : 'Message not found');
}

/** An auditor reads a channel's chats and writes nothing to them. */
export function assertMayWrite(rights: FrameRights, channelId: string): void {
  if (channelAllowed(rights, channelId) && !mayWrite(rights, channelId)) throw new AppError('FORBIDDEN', 'An auditor of this channel reads its chats only');
}
