import { chatRefOfEvent } from '../embedding/event-chat.ts';
import type { ChatRecord, ChatRepository } from '../messages/ports.ts';
import type { EventRecord } from '../ports.ts';
import { withoutPhones } from './hidden-phones.ts';
import { channelAllowed, type FrameRights } from './visibility.ts';

type Readable = Pick<EventRecord, 'accountId' | 'payload'> & Partial<Pick<EventRecord, 'orderingKey'>>;

const fieldOf = (payload: unknown, key: string): string | undefined => {
  const v = payload !== null && typeof payload === 'object' ? (payload as Record<string, unknown>)[key] : undefined;
  return typeof v === 'string' ? v : undefined;
};

/** The chat of an event: by its ordering key (`chat:<id>`), or the `chat_ref` of its payload. */
async function chatOf(chats: Pick<ChatRepository, 'get'>, event: Readable, cache: Map<string, ChatRecord | null>): Promise<ChatRecord | null> {
  const ref = chatRefOfEvent({ orderingKey: event.orderingKey ?? null }) ?? fieldOf(event.payload, 'chat_ref');
  if (!ref) return null;
  if (!cache.has(ref)) cache.set(ref, (await chats.get(event.accountId, ref)) ?? null);
  return cache.get(ref) ?? null;
}

/**
 * The event as a frame under `rights` receives it, or null when the user may not see it: an event of a channel
 * the user has no role on is kept from them; phone numbers are masked where they are hidden from the user.
 */
export async function eventForRights<E extends Readable>(
  chats: Pick<ChatRepository, 'get'>,
  rights: FrameRights,
  event: E,
  cache: Map<string, ChatRecord | null> = new Map(),
): Promise<E | null> {
  const chat = await chatOf(chats, event, cache);
  const channelId = fieldOf(event.payload, 'channel_id') ?? chat?.channelId;
  if (rights.channels !== null && channelId !== undefined && !channelAllowed(rights, channelId)) return null;
  if (rights.channels !== null && channelId === undefined && chat === null && fieldOf(event.payload, 'chat_ref') !== undefined) return null;
  if (!rights.hidePhones) return event;
  return { ...event, payload: withoutPhones(event.payload, chat?.id ?? fieldOf(event.payload, 'chat_ref'), chat?.chatType) };
}
