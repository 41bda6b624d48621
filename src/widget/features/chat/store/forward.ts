import { create } from 'zustand';
import type { BffChat } from '../../../../contract/bff-chats.ts';
import type { Attachment } from '../../../../contract/messages.ts';
import type { BffChannel } from '../../../../contract/session.ts';
import type { ChatMessage } from './message.ts';

/** What a forward sends on: the message's words and its file (a file by the URL the gateway already holds). */
export interface Forwarded {
  text: string | null;
  attachment: Attachment | null;
}

/** What of a message can be forwarded, or null when nothing can (not yet sent, deleted, or a file with no URL). */
export function forwardedContent(m: ChatMessage): Forwarded | null {
  if (!m.message_id || m.deleted) return null;
  const words = m.text ?? m.template?.text ?? null;
  const text = words !== null && words.trim() !== '' ? words : null;
  const attachment = m.attachment?.url ? m.attachment : null;
  return text === null && attachment === null ? null : { text, attachment };
}

/**
 * The chats a forward may go to: any other chat whose channel is active, reaches that kind of chat and takes words
 * that long (every transport takes files). The gateway still decides each send.
 */
export function forwardTargets(chats: readonly BffChat[], channels: readonly BffChannel[], content: Forwarded, fromChatRef: string | null): BffChat[] {
  const byId = new Map(channels.map((c) => [c.channel_id, c]));
  return chats.filter((chat) => {
    if (chat.chat_ref === fromChatRef) return false;
    const channel = byId.get(chat.channel_id);
    if (!channel || channel.status !== 'active') return false;
    const caps = channel.capabilities;
    if (!caps.chat_types.includes(chat.chat_type)) return false;
    return content.text === null || content.text.length <= caps.text_limit;
  });
}

/** The forward the agent started: what it carries, and the menu button to give the focus back to. */
interface ForwardUi {
  content: Forwarded | null;
  opener: HTMLElement | null;
  start(content: Forwarded, opener: HTMLElement | null): void;
  finish(): void;
}

export const useForward = create<ForwardUi>()((set) => ({
  content: null,
  opener: null,
  start: (content, opener) => set({ content, opener }),
  finish: () => set({ content: null, opener: null }),
}));
