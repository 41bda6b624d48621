import type { ChatRecord, ChatRepository } from '../messages/ports.ts';
import type { EventRecord } from '../ports.ts';
import { chatOfPayload, isChatEvent, type ChatIdentity } from './scope.ts';

const CHAT_KEY = /^chat:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/** The gateway's id of the chat an event was recorded for (its ordering key `chat:<chat id>`), if any. */
export const chatRefOfEvent = (event: Pick<EventRecord, 'orderingKey'>): string | undefined => CHAT_KEY.exec(event.orderingKey ?? '')?.[1];

/**
 * The chat a chat event is about. message.add names it in `recipient`; status, edit and delete events name
 * only the message, so their chat is found through the ordering key (`chat:<chat id>`). Lookups are cached
 * in `cache` for a batch of events.
 */
export async function chatOfEvent(
  chats: Pick<ChatRepository, 'get'>,
  event: Pick<EventRecord, 'accountId' | 'name' | 'payload' | 'orderingKey'>,
  cache: Map<string, ChatIdentity | null> = new Map(),
): Promise<ChatIdentity | null> {
  if (!isChatEvent(event.name)) return null;
  const named = chatOfPayload(event.payload);
  if (named) return named;
  const ref = chatRefOfEvent(event);
  if (!ref) return null;
  if (!cache.has(ref)) {
    const chat = await chats.get(event.accountId, ref);
    cache.set(ref, chat ? { chat_type: chat.chatType, chat_id: chat.chatId, username: chat.username, phone: chat.phone } : null);
  }
  return cache.get(ref) ?? null;
}

/** What a batch of events needs to know of its chats, read once: the identities and the stored rows, by chat id. */
export interface EventChats {
  identities: Map<string, ChatIdentity | null>;
  records: Map<string, ChatRecord | null>;
}

/**
 * Reads every chat a batch of events names by its ordering key in one query, as caches for `chatOfEvent` and
 * `unansweredUpdate` (a chat of another account than its event is treated as unknown).
 */
export async function eventChats(chats: Pick<ChatRepository, 'getMany'>, events: readonly Pick<EventRecord, 'accountId' | 'orderingKey'>[]): Promise<EventChats> {
  const accountOf = new Map<string, string>();
  for (const event of events) {
    const ref = chatRefOfEvent(event);
    if (ref && !accountOf.has(ref)) accountOf.set(ref, event.accountId);
  }
  const found = accountOf.size > 0 ? await chats.getMany([...accountOf.keys()]) : [];
  const byId = new Map(found.map((c) => [c.id, c]));
  const result: EventChats = { identities: new Map(), records: new Map() };
  for (const [ref, accountId] of accountOf) {
    const chat = byId.get(ref);
    const mine = chat && chat.accountId === accountId ? chat : null;
    result.records.set(ref, mine);
    result.identities.set(ref, mine ? { chat_type: mine.chatType, chat_id: mine.chatId, username: mine.username, phone: mine.phone } : null);
  }
  return result;
}
