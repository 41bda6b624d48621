import type { ChatType } from '../../../contract/channels.ts';
import { AppError } from '../errors.ts';
import type { MessageDeps } from './ports.ts';

/**
 * The agent is typing in a chat: the customer is shown so where the messenger has it (a personal account's presence,
 * a bot's chat action). A courtesy: a chat not yet known by the messenger, a channel that is not active or a
 * transport without typing shows nothing, and says nothing.
 */
export async function showTyping(deps: MessageDeps, accountId: string, chatRef: string): Promise<void> {
  const chat = await deps.store.chats.get(accountId, chatRef);
  if (!chat) throw new AppError('CHAT_NOT_FOUND', 'Chat not found');
  const channel = await deps.store.channels.get(accountId, chat.channelId);
  if (!channel || channel.state.status !== 'active' || chat.chatId === null) return;
  if (!deps.rules[channel.transport].capabilities.typing) return;
  await deps.driver.sendTyping?.({ accountId, channelId: channel.id, transport: channel.transport, chatType: chat.chatType, chatId: chat.chatId, sealedCredentials: channel.credentials });
}

/** A customer typing, as a platform reports it (frames only: never stored, never a webhook). */
export interface ReportedTyping {
  channelId: string;
  chatType: ChatType;
  chatId: string;
  /** The customer stopped without sending (Telegram's cancel, WhatsApp's pause): the frames end "typing…" at once. */
  stopped?: true;
}

/** Where drivers tell that a customer is typing; the frames of the account hear it (the realtime hub). */
export type TypingHeard = (typing: ReportedTyping) => void;
