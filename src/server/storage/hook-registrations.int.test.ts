import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, databaseKind, type TestDatabase } from '../testing/test-database.ts';
import { migrateToLatest, openDatabase, type Database } from './database.ts';
import { channelRepository } from './repositories/channels.ts';
import { hookRegistrationRepository } from './repositories/hook-registrations.ts';

const NOW = 'v1:now';

describe(`hook registrations (${databaseKind()})`, () => {
  let testDb: TestDatabase;
  let database: Database;
  const accountId = randomUUID();
  const at = new Date(Date.UTC(2030, 0, 1));
  const lease = (minutes: number) => new Date(at.getTime() + minutes * 60_000);

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

  const addChannel = async (overrides: { transport?: string; status?: string; fingerprint?: string | null; deleted?: boolean } = {}) => {
    const id = randomUUID();
    await database.db
      .insertInto('channels')
      .values({
        id,
        account_id: accountId,
        transport: overrides.transport ?? 'telegram',
        status: overrides.status ?? 'active',
        reason: null,
        phone: null,
        username: 'bot',
        messenger_id: `bot-${id}`,
        name: 'Bot',
        auth_url: null,
        tier: null,
        paid: true,
        credentials: `sealed-${id}`,
        qr: null,
        pairing: null,
        created_at: at,
        updated_at: at,
        deleted_at: overrides.deleted ? at : null,
        hook_fingerprint: overrides.fingerprint ?? null,
      })
      .execute();
    return id;
  };
  const fingerprintOf = async (id: string) => (await database.db.selectFrom('channels').select('hook_fingerprint').where('id', '=', id).executeTakeFirstOrThrow()).hook_fingerprint;

  it('claims active channels of the transport registered otherwise, in id order, each once until its lease lapses', async () => {
    const repo = hookRegistrationRepository(database.db);
    const outdated = [await addChannel(), await addChannel({ fingerprint: 'v1:before' }), await addChannel()].sort();
    await addChannel({ fingerprint: NOW });
    await addChannel({ status: 'disabled' });
    await addChannel({ deleted: true });
    await addChannel({ transport: 'maxbot' });
    const claim = (after: string | null, now = at) => repo.claimOutdated({ transport: 'telegram', fingerprint: NOW, after, limit: 2, now, leaseUntil: new Date(now.getTime() + 5 * 60_000) });

    const first = await claim(null);
    expect(first.map((c) => c.id)).toEqual(outdated.slice(0, 2));
    expect(first[0]).toMatchObject({ credentials: `sealed-${outdated[0]}`, messengerId: `bot-${outdated[0]}` });
    expect((await claim(first[1]!.id)).map((c) => c.id)).toEqual([outdated[2]]);
    // Held by the leases: another process, or a pass from the start, passes them by.
    expect(await claim(null)).toEqual([]);
    expect((await claim(null, lease(5))).map((c) => c.id)).toEqual(outdated.slice(0, 2));
  });

  it('records a fingerprint only over the one read and for the same bot, and tells a channel that left its bot', async () => {
    const repo = hookRegistrationRepository(database.db);
    const id = await addChannel({ transport: 'maxbot' });
    const claimed = await repo.claimOutdated({ transport: 'maxbot', fingerprint: NOW, after: null, limit: 10, now: lease(60), leaseUntil: lease(65) });
    const read = claimed.find((c) => c.id === id);
    expect(read).toMatchObject({ fingerprint: null, messengerId: `bot-${id}` });

    // A reconnect stores what it registered meanwhile.
    await database.db.updateTable('channels').set({ hook_fingerprint: 'v1:by-a-reconnect' }).where('id', '=', id).execute();
    expect(await repo.record(read!, NOW)).toBe('changed');
    expect(await fingerprintOf(id)).toBe('v1:by-a-reconnect');

    await database.db.updateTable('channels').set({ messenger_id: 'another-bot', hook_fingerprint: null }).where('id', '=', id).execute();
    expect(await repo.record(read!, NOW)).toBe('left');
    await database.db.updateTable('channels').set({ messenger_id: read!.messengerId, deleted_at: at }).where('id', '=', id).execute();
    expect(await repo.record(read!, NOW)).toBe('left');
    await database.db.updateTable('channels').set({ deleted_at: null }).where('id', '=', id).execute();
    expect(await repo.record(read!, NOW)).toBe('recorded');
    expect(await fingerprintOf(id)).toBe(NOW);
  });

  it('gives concurrent claims different channels', async () => {
    const repo = hookRegistrationRepository(database.db);
    for (let i = 0; i < 6; i++) await addChannel({ transport: 'claimed-concurrently' });
    const claim = () => repo.claimOutdated({ transport: 'claimed-concurrently' as 'telegram', fingerprint: NOW, after: null, limit: 3, now: at, leaseUntil: lease(5) });
    const [a, b] = await Promise.all([claim(), claim()]);
    const ids = [...a, ...b].map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(6);
  });

  it('leaves the fingerprint and the claim as they were when the channel is updated otherwise', async () => {
    const repo = hookRegistrationRepository(database.db);
    const channels = channelRepository(database.db);
    const id = await addChannel({ transport: 'update-kept', fingerprint: 'v1:before' });
    // Claimed by a pass under way: its lease must hold through the update.
    await repo.claimOutdated({ transport: 'update-kept' as 'telegram', fingerprint: NOW, after: null, limit: 1, now: at, leaseUntil: lease(5) });
    const stored = () => database.db.selectFrom('channels').select(['status', 'hook_fingerprint', 'hook_lease_until']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(await stored()).toMatchObject({ hook_fingerprint: 'v1:before', hook_lease_until: lease(5) });

    const read = await channels.get(accountId, id);
    await channels.update({ ...read!, state: { status: 'disabled', reason: 'unauthorized' }, updatedAt: lease(1) });
    expect(await stored()).toEqual({ status: 'disabled', hook_fingerprint: 'v1:before', hook_lease_until: lease(5) });
  });
});
