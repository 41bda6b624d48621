import { randomUUID } from 'node:crypto';
import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, databaseKind, type TestDatabase } from '../testing/test-database.ts';
import { migrateToLatest, openDatabase, type Database } from './database.ts';
import { migrationProvider } from './migrations/index.ts';
import { takeStatement } from './repositories/webhook-delivery-claims.ts';

const at = new Date(Date.UTC(2030, 0, 1, 12));

describe(`events of an existing database are keyed by position (${databaseKind()})`, () => {
  let test: TestDatabase;
  let database: Database;
  const accountId = randomUUID();
  const subscriptionId = randomUUID();
  const [first, second] = [randomUUID(), randomUUID()];
  const [current, legacy] = [randomUUID(), randomUUID()];

  beforeAll(async () => {
    test = await createTestDatabase();
    database = await openDatabase(test.target);
    const { error } = await new Migrator({ db: database.db, provider: migrationProvider }).migrateTo('0033_lighter_send_writes');
    expect(error).toBeUndefined();
    const db = database.db;
    await db.insertInto('accounts').values({ id: accountId, name: 'A', created_at: at }).execute();
    await db.insertInto('webhook_subscriptions').values({ id: subscriptionId, account_id: accountId, url: 'https://crm.example/hook', event: 'message.add', created_at: at }).execute();
    for (const id of [first, second]) {
      await db.insertInto('events').values({ id, account_id: accountId, name: 'message.add', ordering_key: 'chat:1', payload: JSON.stringify({ n: id }), created_at: at }).execute();
    }
    const positions = await db.selectFrom('events').select(['id', 'position']).execute();
    const positionOf = (id: string) => String(positions.find((p) => p.id === id)!.position);
    // One delivery as they are queued now (its seq is its event's position), one from before lanes followed positions.
    const delivery = (id: string, eventId: string, seq: string) => ({
      id,
      subscription_id: subscriptionId,
      account_id: accountId,
      event_id: eventId,
      event_name: 'message.add',
      endpoint: 'e',
      lane: `lane-${id}`,
      seq,
      status: 'pending' as const,
      next_attempt_at: at,
      created_at: at,
    });
    await db.insertInto('webhook_deliveries').values([delivery(current, first, positionOf(first)), delivery(legacy, second, '9000')]).execute();
    await migrateToLatest(db);
  });
  afterAll(async () => {
    await database.close();
    await test.drop();
  });

  it('makes the position the primary key, drops the id’s index, and renumbers deliveries of the older numbering', async () => {
    const { rows: keys } = await sql<{ column: string }>`
      select a.attname as column from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
      where i.indrelid = 'events'::regclass and i.indisprimary`.execute(database.db);
    expect(keys.map((k) => k.column)).toEqual(['position']);
    const { rows: onId } = await sql<{ name: string }>`
      select c.relname as name from pg_index i join pg_class c on c.oid = i.indexrelid join pg_attribute a on a.attrelid = i.indrelid and a.attnum = i.indkey[0]
      where i.indrelid = 'events'::regclass and a.attname = 'id'`.execute(database.db);
    expect(onId).toEqual([]);
    const { rows } = await sql<{ id: string; same: boolean }>`
      select d.id, d.seq = e.position as same from webhook_deliveries d join events e on e.id = d.event_id order by d.id`.execute(database.db);
    expect(rows.every((r) => r.same)).toBe(true);
  });

  it('takes both deliveries with their events’ payloads, found by position', async () => {
    const taken = (await takeStatement([current, legacy], { now: at, leaseSeconds: 30 }).execute(database.db)).rows;
    expect(taken.map((t) => [t.id, t.payload]).sort()).toEqual(
      [
        [current, { n: first }],
        [legacy, { n: second }],
      ].sort(),
    );
  });
});
