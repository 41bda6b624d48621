import type { StreamEvent } from '../../../contract/realtime.ts';
import type { ChatRecord, ChatRepository } from '../messages/ports.ts';
import type { EventRecord } from '../ports.ts';
import { chatRefOfEvent } from './event-chat.ts';
import type { ChatIdentity } from './scope.ts';

/**
 * The events after which a chat's unanswered counter may have changed: a message arrived (inbound: +1; written
 * on the phone: reset), or the first status of an outbound message (its acceptance reset the counter unless
 * `reset_unanswered` was false), or an agent marked the chat answered. Receipts (delivered, read) never change it.
 */
function mayChangeCounter(event: Pick<EventRecord, 'name' | 'payload'>): boolean {
  if (event.name === 'message.add' || event.name === 'chat.answered') return true;
  if (event.name !== 'message.status_update') return false;
  const status = (event.payload as { status?: unknown } | null)?.status;
  return status === 'accepted' || status === 'sent' || status === 'failed';
}

export interface UnansweredUpdate {
  event: Extract<StreamEvent, { name: 'chat.unanswered_update' }>;
  chat: ChatIdentity;
}

const identityOf = (chat: ChatRecord): ChatIdentity => ({ chat_type: chat.chatType, chat_id: chat.chatId, username: chat.username, phone: chat.phone });

/**
 * `chat.unanswered_update` for the frames, derived from the event stream rather than recorded: webhooks keep
 * exactly the interface's events. It carries the chat's counter as stored when the event is pushed, at the
 * position of the event that caused it (id `<event id>.unanswered`), so a frame that keeps the value of the
 * highest position per chat always ends on the current count, whatever order pushes arrive in.
 */
export async function unansweredUpdate(
  chats: Pick<ChatRepository, 'get'>,
  event: EventRecord,
  cache: Map<string, ChatRecord | null> = new Map(),
): Promise<UnansweredUpdate | null> {
  if (event.position === undefined || !mayChangeCounter(event)) return null;
  const ref = chatRefOfEvent(event);
  if (!ref) return null;
  if (!cache.has(ref)) cache.set(ref, (await chats.get(event.accountId, ref)) ?? null);
  const chat = cache.get(ref);
  if (!chat) return null;
  return {
    chat: identityOf(chat),
    event: {
      id: `${event.id}.unanswered`,
      position: event.position,
      name: 'chat.unanswered_update',
      payload: { chat_ref: chat.id, channel_id: chat.channelId, chat_type: chat.chatType, chat_id: chat.chatId, unanswered_count: chat.unanswered },
      created_at: event.createdAt.toISOString(),
    },
  };
}
