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

  beforeAll(async () => {
    t = await startTestGateway({ sinks: [{ name: 'probe', consume: async (events) => void consumed.push(...events) }] });
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

  it("queues an event's webhook deliveries in the statement that records it: one per active subscription to its name", async () => {
    const db = t.gateway.database.db;
    const subscription = (url: string, event: string, status: 'active' | 'disabled' = 'active') => ({
      id: crypto.randomUUID(),
      account_id: accountId,
      url,
      event,
      created_at: new Date(),
      status,
      disabled_reason: null,
      disabled_at: null,
      failing_since: null,
    });
    // Nothing listens there: the deliveries stay queued for this test to read.
    await db
      .insertInto('webhook_subscriptions')
      .values([subscription('http://127.0.0.1:9/a', 'channel.update'), subscription('http://127.0.0.1:9/b', 'channel.update'), subscription('http://127.0.0.1:9/c', 'channel.update', 'disabled'), subscription('http://127.0.0.1:9/d', 'channel.delete')])
      .execute();
    const queued = async (eventId: string) =>
      (await db.selectFrom('webhook_deliveries').select(['endpoint', 'lane', 'seq', 'status']).where('event_id', '=', eventId).orderBy('endpoint').execute()).map((d) => ({ ...d, seq: Number(d.seq) }));

    let rolledBack = '';
    await expect(
      t.gateway.store.transaction(async (tx) => {
        rolledBack = (await recordEvent(tx, systemClock, { accountId, name: 'channel.update', orderingKey: 'channel:2', payload: {} })).id;
        throw new Error('the state change failed');
      }),
    ).rejects.toThrow('the state change failed');
    expect(await queued(rolledBack)).toEqual([]);

    const event = await t.gateway.store.transaction((tx) => recordEvent(tx, systemClock, { accountId, name: 'channel.update', orderingKey: 'channel:2', payload: {} }));
    const position = (await t.gateway.store.events.get(event.id))!.position;
    const deliveries = await queued(event.id);
    expect(deliveries).toHaveLength(2);
    for (const d of deliveries) expect(d).toMatchObject({ lane: 'channel:2', seq: position });
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
