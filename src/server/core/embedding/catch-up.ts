import { streamEventNames, type CaughtUp, type Resync, type StreamEvent } from '../../../contract/realtime.ts';
import type { EventRecord } from '../ports.ts';
import { embeddingPolicy } from './policy.ts';
import type { ChatRecord, ChatRepository, MessageRepository } from '../messages/ports.ts';
import { withCaptionOf } from './caption-events.ts';
import { unansweredUpdate } from './unanswered.ts';
import { chatOfEvent } from './event-chat.ts';
import type { ChatIdentity } from './scope.ts';
import type { EmbedSessionRecord, EventLogRepository } from './ports.ts';
import { visibleTo } from './scope.ts';
import { eventForRights } from '../rights/events.ts';
import type { FrameRights } from '../rights/visibility.ts';

const STREAMED: ReadonlySet<string> = new Set(streamEventNames);

/** Whether the realtime stream carries events of this name at all. */
export const isStreamed = (name: string): boolean => STREAMED.has(name);

/** An event as frames receive it. Events read back from the store always carry their position. */
export function toStreamEvent(event: EventRecord): StreamEvent {
  if (event.position === undefined) throw new Error(`event ${event.id} has no stream position`);
  return { id: event.id, position: event.position, name: event.name, payload: event.payload, created_at: event.createdAt.toISOString() } as StreamEvent;
}

/** A stream event without what was added to judge it. */
export const streamEventOf = ({ id, position, name, payload, created_at }: StreamEvent): StreamEvent => ({ id, position, name, payload, created_at }) as StreamEvent;

/**
 * The stream events of `visible` (already filtered for the session), each chat's counter-changing events
 * followed, after the last of them, by one `chat.unanswered_update` with the chat's current count: a frame
 * that missed several changes needs only where the counter stands now.
 */
async function withUnansweredUpdates(chats: Pick<ChatRepository, 'get'>, visible: EventRecord[]): Promise<StreamEvent[]> {
  const cache = new Map<string, ChatRecord | null>();
  const lastUpdate = new Map<string, { after: number; update: StreamEvent }>();
  for (const [i, e] of visible.entries()) {
    const update = await unansweredUpdate(chats, e, cache);
    if (update) lastUpdate.set(update.event.payload.chat_ref, { after: i, update: update.event });
  }
  const updatesAfter = new Map([...lastUpdate.values()].map(({ after, update }) => [after, update]));
  return visible.flatMap((e, i) => {
    const update = updatesAfter.get(i);
    return update ? [toStreamEvent(e), update] : [toStreamEvent(e)];
  });
}

/**
 * What a (re)connecting frame missed since `after`, filtered by what its session may see, or a resync signal
 * when that is more than the replay limit or `after` is not a position of the account's stream. Without
 * `after` (a first connection) it only tells the current position.
 */
export async function catchUp(
  deps: { eventLog: EventLogRepository; chats: Pick<ChatRepository, 'get'>; messages: Pick<MessageRepository, 'get' | 'findByMessengerId'> },
  session: EmbedSessionRecord,
  after: number | undefined,
  rights?: FrameRights,
): Promise<({ kind: 'caught_up' } & CaughtUp) | ({ kind: 'resync' } & Resync)> {
  const head = await deps.eventLog.head(session.accountId);
  if (after === undefined) return { kind: 'caught_up', events: [], position: head };
  if (!Number.isSafeInteger(after) || after < 0 || after > head) return { kind: 'resync', reason: 'unknown_position', position: head };
  let overlapFrom = new Date(0);
  if (after > 0) {
    const anchor = await deps.eventLog.at(session.accountId, after);
    if (!anchor) return { kind: 'resync', reason: 'unknown_position', position: head };
    overlapFrom = new Date(anchor.createdAt.getTime() - embeddingPolicy.replayOverlapSeconds * 1000);
  }
  const limit = embeddingPolicy.replayLimit;
  const missed = await deps.eventLog.since(session.accountId, { after, overlapFrom, limit: limit + 1 });
  if (missed.length > limit) return { kind: 'resync', reason: 'too_far_behind', position: head };
  const chats = new Map<string, ChatIdentity | null>();
  const visible: EventRecord[] = [];
  const records = new Map<string, ChatRecord | null>();
  for (const e of missed) {
    if (!isStreamed(e.name) || !visibleTo(session, e, await chatOfEvent(deps.chats, e, chats))) continue;
    const shown = rights ? await eventForRights(deps.chats, rights, e, records) : e;
    if (shown) visible.push(await withCaptionOf(deps.messages, shown));
  }
  const all = await withUnansweredUpdates(deps.chats, visible);
  // The counter updates are made here from the stored chats: under rights they are judged (and masked) again.
  const events: StreamEvent[] = [];
  for (const e of all) {
    const shown = rights && e.name === 'chat.unanswered_update' ? await eventForRights(deps.chats, rights, { ...e, accountId: session.accountId }, records) : e;
    if (shown) events.push(rights && e.name === 'chat.unanswered_update' ? streamEventOf(shown as StreamEvent & { accountId: string }) : shown);
  }
  const position = Math.max(head, ...missed.map((e) => e.position ?? 0));
  return { kind: 'caught_up', events, position };
}
