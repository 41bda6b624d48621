import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordEvent } from '../core/events/record-event.ts';
import type { EventRecord } from '../core/ports.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { databaseKind } from '../testing/test-database.ts';
import { eventually } from '../testing/eventually.ts';
import { seededRandom } from '../testing/webhook-receiver.ts';
import { systemClock } from '../core/ports.ts';

describe(`events are committed with the state change, and followed from the table (${databaseKind()})`, () => {
  let t: TestGateway;
  let accountId: string;
  const consumed: EventRecord[] = [];

  beforeAll(async () => {
    t = await startTestGateway({ sinks: [{ name: 'probe', consume: async (events) => void consumed.push(...events) }] });
    ({ accountId } = await t.newAccount());
  });
  afterAll(() => t.close());

  it('records the event in the same transaction, and the dispatcher hands it to the sinks once', async () => {
    const event = await t.gateway.store.transaction((tx) =>
      recordEvent(tx, systemClock, { accountId, name: 'channel.create', orderingKey: 'channel:1', payload: { channel_id: 'c1' } }),
    );
    await eventually(async () => consumed.find((e) => e.id === event.id));
    expect(consumed.find((e) => e.id === event.id)?.payload).toEqual({ channel_id: 'c1' });
    const position = (await t.gateway.store.events.get(event.id))!.position!;
    expect(t.gateway.streamPassed(position)).toBe(true);
    // Later rounds read on from there: the event is not handed again.
    const next = await t.gateway.store.transaction((tx) => recordEvent(tx, systemClock, { accountId, name: 'channel.update', orderingKey: 'channel:1', payload: {} }));
    await eventually(async () => consumed.find((e) => e.id === next.id));
    expect(consumed.filter((e) => e.id === event.id)).toHaveLength(1);
  });

  // Two transactions at once need a server; the embedded database runs one at a time.
  it.skipIf(databaseKind() !== 'postgres')('hands an event that commits after a later one was read, once it commits', async () => {
    const { db } = t.gateway.database;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const positionTaken = new Promise<void>((resolve) => (inserted = resolve));
    let early = '';
    const slow = db.transaction().execute(async (trx) => {
      early = crypto.randomUUID();
      await sql`insert into events (id, account_id, name, ordering_key, payload, created_at)
        values (${early}, ${accountId}, 'channel.update', 'channel:late', '{"n":1}'::jsonb, now())`.execute(trx);
      inserted();
      await held;
    });
    await positionTaken;
    const later = await t.gateway.store.transaction((tx) => recordEvent(tx, systemClock, { accountId, name: 'channel.update', orderingKey: 'channel:late', payload: { n: 2 } }));
    await eventually(async () => consumed.find((e) => e.id === later.id));
    expect(consumed.some((e) => e.id === early)).toBe(false);

    release();
    await slow;
    // Nothing in this process heard of that commit: the dispatcher's poll finds the position it read past.
    await eventually(async () => consumed.find((e) => e.id === early), 5_000);
    const earlyEvent = (await t.gateway.store.events.get(early))!;
    expect(earlyEvent.position!).toBeLessThan((await t.gateway.store.events.get(later.id))!.position!);
    expect(consumed.filter((e) => e.id === early || e.id === later.id).map((e) => e.id)).toEqual([later.id, early]);
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
    // A commit after it is handed; the rolled-back event never is.
    const after = await t.gateway.store.transaction((tx) => recordEvent(tx, systemClock, { accountId, name: 'channel.delete', orderingKey: null, payload: {} }));
    await eventually(async () => consumed.find((e) => e.id === after.id));
    expect(consumed.some((e) => e.id === eventId)).toBe(false);
  });

  // Transactions that overlap need a server; the embedded database runs one at a time.
  it.skipIf(databaseKind() !== 'postgres')('hands every committed event once and no rolled-back one, under writers whose commits come in any order', async () => {
    const random = seededRandom(7);
    const committed: string[] = [];
    const rolledBack: string[] = [];
    const pause = () => new Promise((r) => setTimeout(r, Math.floor(random() * 15)));

    // Eight writers, each transaction recording one to three events and holding its positions for a while
    // before it commits (or, one in five, rolls back), so positions commit out of order.
    await Promise.all(
      Array.from({ length: 8 }, async (_, writer) => {
        for (let n = 0; n < 20; n++) {
          const events = 1 + Math.floor(random() * 3);
          const fail = random() < 0.2;
          const ids: string[] = [];
          await t.gateway.store
            .transaction(async (tx) => {
              for (let e = 0; e < events; e++) {
                ids.push((await recordEvent(tx, systemClock, { accountId, name: 'message.add', orderingKey: `writer:${writer}`, payload: { writer, n, e } })).id);
              }
              await pause();
              if (fail) throw new Error('rolled back on purpose');
            })
            .then(
              () => committed.push(...ids),
              () => rolledBack.push(...ids),
            );
        }
      }),
    );

    // The other tests of this file hand events of their own to the same probe.
    const handed = () => new Set(consumed.filter((e) => e.orderingKey?.startsWith('writer:')).map((e) => e.id));
    await eventually(async () => (committed.every((id) => handed().has(id)) ? true : undefined), 15_000);
    expect(rolledBack.length).toBeGreaterThan(0);
    const ids = consumed.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => rolledBack.includes(id))).toEqual([]);
    expect([...handed()].sort()).toEqual([...committed].sort());
  });
});
