import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordEvent } from '../core/events/record-event.ts';
import type { EventRecord } from '../core/ports.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { databaseKind } from '../testing/test-database.ts';
import { eventually } from '../testing/eventually.ts';
import { systemClock } from '../core/ports.ts';

describe(`events are the dispatch queue, committed with the state change (${databaseKind()})`, () => {
  let t: TestGateway;
  let accountId: string;
  const consumed: EventRecord[] = [];
  const recorded: string[] = [];
  const refused: string[] = [];
  let failing = false;

  beforeAll(async () => {
    t = await startTestGateway({
      sinks: [
        {
          name: 'probe',
          record: async (_tx, events) => {
            if (failing) {
              refused.push(...events.map((e) => e.id));
              throw new Error('the sink cannot record now');
            }
            recorded.push(...events.map((e) => e.id));
          },
          consume: async (events) => void consumed.push(...events),
        },
      ],
    });
    ({ accountId } = await t.newAccount());
  });
  afterAll(() => t.close());

  const undispatched = async (eventId: string) => {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from events where id = ${eventId} and dispatched_at is null`.execute(t.gateway.database.db);
    return rows[0]!.n;
  };

  it('records the event undispatched in the same transaction, and the dispatcher hands it to the sinks', async () => {
    const event = await t.gateway.store.transaction((tx) =>
      recordEvent(tx, systemClock, { accountId, name: 'channel.create', orderingKey: 'channel:1', payload: { channel_id: 'c1' } }),
    );
    const dispatched = await eventually(async () => (await t.gateway.store.events.get(event.id))?.dispatchedAt ?? undefined);
    expect(dispatched).toBeInstanceOf(Date);
    expect(consumed.map((e) => e.id)).toContain(event.id);
    expect(consumed.find((e) => e.id === event.id)?.payload).toEqual({ channel_id: 'c1' });
  });

  it('keeps an event undispatched while a durable sink cannot record it, then dispatches it once', async () => {
    failing = true;
    const event = await t.gateway.store.transaction((tx) =>
      recordEvent(tx, systemClock, { accountId, name: 'channel.update', orderingKey: 'channel:2', payload: { channel_id: 'c2' } }),
    );
    await eventually(async () => (refused.includes(event.id) ? true : undefined));
    expect(await undispatched(event.id)).toBe(1);
    expect(consumed.map((e) => e.id)).not.toContain(event.id);
    failing = false;
    await eventually(async () => (await t.gateway.store.events.get(event.id))?.dispatchedAt ?? undefined);
    expect(recorded.filter((id) => id === event.id)).toHaveLength(1);
    expect(consumed.filter((e) => e.id === event.id)).toHaveLength(1);
  });

  it('leaves no event to dispatch behind when the transaction rolls back', async () => {
    let eventId = '';
    await expect(
      t.gateway.store.transaction(async (tx) => {
        eventId = (await recordEvent(tx, systemClock, { accountId, name: 'channel.delete', orderingKey: null, payload: {} })).id;
        throw new Error('the state change failed after the event was written');
      }),
    ).rejects.toThrow('the state change failed');
    expect(eventId).not.toBe('');
    expect(await t.gateway.store.events.get(eventId)).toBeUndefined();
    expect(await undispatched(eventId)).toBe(0);
  });
});
