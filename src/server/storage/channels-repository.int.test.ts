import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelRecord } from '../core/channels/ports.ts';
import { createTestDatabase, databaseKind, type TestDatabase } from '../testing/test-database.ts';
import { migrateToLatest, openDatabase, type Database } from './database.ts';
import { channelRepository } from './repositories/channels.ts';

describe(`channel repository (${databaseKind()})`, () => {
  let testDb: TestDatabase;
  let database: Database;
  const accountA = randomUUID();
  const accountB = randomUUID();

  beforeAll(async () => {
    testDb = await createTestDatabase();
    database = await openDatabase(testDb.target);
    await migrateToLatest(database.db);
    const now = new Date();
    await database.db
      .insertInto('accounts')
      .values([
        { id: accountA, name: 'A', created_at: now },
        { id: accountB, name: 'B', created_at: now },
      ])
      .execute();
  });
  afterAll(async () => {
    await database.close();
    await testDb.drop();
  });

  const channel = (overrides: Partial<ChannelRecord> = {}): ChannelRecord => ({
    id: randomUUID(),
    accountId: accountA,
    transport: 'whatsapp',
    state: { status: 'init', reason: 'qr' },
    phone: null,
    username: null,
    messengerId: null,
    messengerAccountId: null,
    name: null,
    authUrl: null,
    tier: null,
    paid: true,
    credentials: 'v1.sealed',
    qr: { payload: 'qr-1', issuedAt: new Date(Date.UTC(2030, 0, 1, 0, 0, 0, 123)), shown: 1 },
    pairing: null,
    createdAt: new Date(Date.UTC(2030, 0, 1)),
    updatedAt: new Date(Date.UTC(2030, 0, 1)),
    ...overrides,
  });

  it('stores and reads back every field, QR cycle included', async () => {
    const repo = channelRepository(database.db);
    const c = channel();
    await repo.insert(c);
    expect(await repo.get(accountA, c.id)).toEqual(c);
    const changed = {
      ...c,
      state: { status: 'active', reason: null } as const,
      qr: null,
      pairing: { code: 'ABCD1234', phone: '79001234567' },
      phone: '79001234567',
      messengerAccountId: '102290129340398',
    };
    await repo.update(changed);
    expect(await repo.getByIdForUpdate(c.id)).toEqual(changed);
  });

  it("keeps one account's channels from another", async () => {
    const repo = channelRepository(database.db);
    const c = channel({ accountId: accountB });
    await repo.insert(c);
    expect(await repo.get(accountA, c.id)).toBeUndefined();
    await repo.remove(accountA, c.id);
    expect(await repo.get(accountB, c.id)).toBeDefined();
    expect((await repo.list(accountB)).map((x) => x.id)).toEqual([c.id]);
    await repo.remove(accountB, c.id);
    expect(await repo.list(accountB)).toEqual([]);
  });

  it('hides a retired channel from every read while its row stays', async () => {
    const repo = channelRepository(database.db);
    const c = channel();
    await repo.insert(c);
    await repo.retire(accountB, c.id, new Date());
    expect(await repo.get(accountA, c.id)).toBeDefined();
    await repo.retire(accountA, c.id, new Date(Date.UTC(2030, 0, 2)));
    expect(await repo.get(accountA, c.id)).toBeUndefined();
    expect(await repo.getForUpdate(accountA, c.id)).toBeUndefined();
    expect(await repo.getByIdForUpdate(c.id)).toBeUndefined();
    expect(await repo.getById(c.id)).toBeUndefined();
    expect((await repo.list(accountA)).map((x) => x.id)).not.toContain(c.id);
    const row = await database.db.selectFrom('channels').select('deleted_at').where('id', '=', c.id).executeTakeFirst();
    expect(row?.deleted_at).toEqual(new Date(Date.UTC(2030, 0, 2)));
  });

  it('reads a channel by its id alone, of whichever account, without waiting for a lock another transaction holds', async () => {
    const repo = channelRepository(database.db);
    const c = channel({ accountId: accountB });
    await repo.insert(c);
    expect(await repo.getById(c.id)).toEqual(c);
    expect(await repo.getById(randomUUID())).toBeUndefined();
    // The embedded database has one connection, on which a transaction holds every other query back: a server's only.
    if (databaseKind() !== 'postgres') return;
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked: () => void = () => {};
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    const holding = database.db.transaction().execute(async (trx) => {
      await channelRepository(trx).getByIdForUpdate(c.id);
      locked();
      await held;
    });
    await lockTaken;
    try {
      const read = await Promise.race([repo.getById(c.id), new Promise<'blocked'>((resolve) => setTimeout(() => resolve('blocked'), 2_000))]);
      expect(read).toEqual(c);
    } finally {
      release();
      await holding;
    }
  });

  it('replaces the credentials only over those it was given, never a retired channel’s: of two renewals at once one wins', async () => {
    const repo = channelRepository(database.db);
    const c = channel({ credentials: 'v1.first' });
    await repo.insert(c);
    const [a, b] = await Promise.all([repo.replaceCredentials(c.id, 'v1.first', 'v1.by-a'), repo.replaceCredentials(c.id, 'v1.first', 'v1.by-b')]);
    expect([a, b].filter(Boolean)).toHaveLength(1);
    expect((await repo.getById(c.id))!.credentials).toBe(a ? 'v1.by-a' : 'v1.by-b');
    expect(await repo.replaceCredentials(c.id, 'v1.first', 'v1.late')).toBe(false);
    const winner = a ? 'v1.by-a' : 'v1.by-b';
    await repo.retire(accountA, c.id, new Date());
    expect(await repo.replaceCredentials(c.id, winner, 'v1.after-deletion')).toBe(false);
    const row = await database.db.selectFrom('channels').select('credentials').where('id', '=', c.id).executeTakeFirst();
    expect(row?.credentials).toBe(winner);
  });
});
