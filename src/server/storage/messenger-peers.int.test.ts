import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, databaseKind, type TestDatabase } from '../testing/test-database.ts';
import { migrateToLatest, openDatabase, type Database } from './database.ts';
import { channelRepository } from './repositories/channels.ts';
import { peerDirectory } from './repositories/messenger-peers.ts';

describe(`the people behind chats, and channels by their account (${databaseKind()})`, () => {
  let testDb: TestDatabase;
  let database: Database;
  const accountId = randomUUID();
  const at = new Date(Date.UTC(2030, 0, 1));

  beforeAll(async () => {
    testDb = await createTestDatabase();
    database = await openDatabase(testDb.target);
    await migrateToLatest(database.db);
    await database.db.insertInto('accounts').values({ id: accountId, name: 'A', created_at: at }).execute();
  });
  afterAll(async () => {
    await database.close();
    await testDb.drop();
  });

  const addChannel = async (messengerId: string, options: { transport?: string; updatedAt?: Date; deleted?: boolean } = {}) => {
    const id = randomUUID();
    await database.db
      .insertInto('channels')
      .values({
        id,
        account_id: accountId,
        transport: options.transport ?? 'instAPI',
        status: 'active',
        reason: null,
        phone: null,
        username: 'acme.shop',
        messenger_id: messengerId,
        name: 'Acme',
        auth_url: null,
        tier: null,
        paid: true,
        credentials: null,
        qr: null,
        pairing: null,
        created_at: at,
        updated_at: options.updatedAt ?? at,
        deleted_at: options.deleted ? at : null,
        hook_fingerprint: null,
      })
      .execute();
    return id;
  };

  it('keeps one name per person and channel; a name another person takes moves to them', async () => {
    const channel = await addChannel('17841400000000001');
    const other = await addChannel('17841400000000002');
    const peers = peerDirectory(database.db);
    await peers.save(channel, { peerId: '61', handle: 'anna.k', name: 'Anna', checkedAt: at });
    await peers.save(other, { peerId: '61', handle: 'anna.k', name: 'Anna elsewhere', checkedAt: at });
    expect(await peers.byHandle(channel, 'anna.k')).toEqual({ peerId: '61', handle: 'anna.k', name: 'Anna', checkedAt: at });
    expect(await peers.byPeerId(other, '61')).toMatchObject({ name: 'Anna elsewhere' });

    // Anna renamed herself, and Boris took her old name: Boris is behind it now, Anna is named again when she writes.
    const later = new Date(at.getTime() + 1000);
    await peers.save(channel, { peerId: '62', handle: 'anna.k', name: 'Boris', checkedAt: later });
    expect(await peers.byHandle(channel, 'anna.k')).toMatchObject({ peerId: '62', name: 'Boris' });
    expect(await peers.byPeerId(channel, '61')).toMatchObject({ handle: null, name: 'Anna' });
    await peers.save(channel, { peerId: '61', handle: 'anna.new', name: 'Anna', checkedAt: later });
    expect(await peers.byHandle(channel, 'anna.new')).toMatchObject({ peerId: '61', checkedAt: later });
    expect(await peers.byHandle(other, 'anna.k')).toMatchObject({ peerId: '61' });
    expect(await peers.byHandle(channel, 'nobody')).toBeUndefined();
  });

  it('finds the visible channels of an account, the one changed last first', async () => {
    const account = '17841400000000009';
    const older = await addChannel(account, { updatedAt: at });
    const newer = await addChannel(account, { updatedAt: new Date(at.getTime() + 60_000) });
    await addChannel(account, { deleted: true });
    await addChannel(account, { transport: 'maxbot' });
    const found = await channelRepository(database.db).listByMessengerId('instAPI', account);
    expect(found.map((c) => c.id)).toEqual([newer, older]);
    expect(await channelRepository(database.db).listByMessengerId('instAPI', '0')).toEqual([]);
  });
});
