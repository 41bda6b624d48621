import { describe, expect, it } from 'vitest';
import type { EventRecord } from '../ports.ts';
import { catchUp } from './catch-up.ts';
import { embeddingPolicy } from './policy.ts';
import type { EmbedSessionRecord, EventLogRepository } from './ports.ts';

const A = 'aaaaaaaa-0000-4000-8000-000000000000';
const session = { id: 's', accountId: A, kind: 'chats', scope: 'global', chats: [] } as unknown as EmbedSessionRecord;

/** An in-memory event log with the store's semantics. */
function log(events: EventRecord[]): EventLogRepository {
  return {
    head: async () => Math.max(0, ...events.map((e) => e.position!)),
    at: async (_a, p) => events.find((e) => e.position === p),
    since: async (_a, { after, overlapFrom, limit }) =>
      events.filter((e) => e.position! > after || e.createdAt >= overlapFrom).sort((x, y) => x.position! - y.position!).slice(0, limit),
  };
}

const event = (position: number, atSeconds: number, name = 'message.add'): EventRecord => ({
  id: `e${position}`,
  accountId: A,
  name,
  orderingKey: null,
  payload: { recipient: { chat_type: 'whatsapp', chat_id: '1' } },
  createdAt: new Date(atSeconds * 1000),
  position,
});

const noChats = { get: async () => undefined };
const noMessages = { get: async () => undefined, findByMessengerId: async () => undefined };

describe('catch-up', () => {
  it('tells a first connection only the current position', async () => {
    expect(await catchUp({ chats: noChats, messages: noMessages, eventLog: log([event(3, 100)]) }, session, undefined)).toEqual({ kind: 'caught_up', events: [], position: 3 });
  });

  it('replays what came after the position, and what may have committed late within the overlap window', async () => {
    const events = [event(1, 10), event(2, 100), event(4, 125), event(5, 131), event(7, 140), event(8, 141, 'messages_dump.status_update')];
    const result = await catchUp({ chats: noChats, messages: noMessages, eventLog: log(events) }, session, 5);
    // 4 was recorded 6 s before 5, so it is resent; 2 is outside the 30 s window; 8 is not a stream event.
    expect(result).toMatchObject({ kind: 'caught_up', position: 8 });
    expect(result.kind === 'caught_up' && result.events.map((e) => e.position)).toEqual([4, 5, 7]);
  });

  it('signals a resync beyond the replay limit', async () => {
    const many = Array.from({ length: embeddingPolicy.replayLimit + 2 }, (_, i) => event(i + 1, 1000 + i));
    expect(await catchUp({ chats: noChats, messages: noMessages, eventLog: log(many) }, session, 1)).toEqual({ kind: 'resync', reason: 'too_far_behind', position: many.length });
    const within = await catchUp({ chats: noChats, messages: noMessages, eventLog: log(many.slice(0, embeddingPolicy.replayLimit)) }, session, 0);
    expect(within.kind).toBe('caught_up');
  });

  it('signals a resync for a position the stream does not have', async () => {
    const events = [event(1, 10), event(3, 20)];
    for (const after of [2, 4, -1, Number.NaN]) {
      expect(await catchUp({ chats: noChats, messages: noMessages, eventLog: log(events) }, session, after)).toEqual({ kind: 'resync', reason: 'unknown_position', position: 3 });
    }
  });
});
