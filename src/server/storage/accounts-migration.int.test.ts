import { Migrator } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, databaseKind, type TestDatabase } from '../testing/test-database.ts';
import { migrateToLatest, openDatabase, type Database } from './database.ts';
import { migrationProvider } from './migrations/index.ts';
import { authRepository } from './repositories/account-profiles.ts';

describe(`accounts of an existing database get their 8-digit ids (${databaseKind()})`, () => {
  let test: TestDatabase;
  let database: Database;
  const older = '00000000-0000-4000-8000-000000000002';
  const newer = '00000000-0000-4000-8000-000000000001';

  beforeAll(async () => {
    test = await createTestDatabase();
    database = await openDatabase(test.target);
    const { error } = await new Migrator({ db: database.db, provider: migrationProvider }).migrateTo('0021_time_ordered_ids');
    expect(error).toBeUndefined();
    // Rows as the release before wrote them: only id, name and created_at.
    await database.db
      .insertInto('accounts')
      .values([
        { id: newer, name: 'Second', created_at: new Date(Date.UTC(2030, 0, 2)) },
        { id: older, name: 'First', created_at: new Date(Date.UTC(2030, 0, 1)) },
      ])
      .execute();
    await migrateToLatest(database.db);
  });
  afterAll(async () => {
    await database.close();
    await test.drop();
  });

  it('numbers existing accounts in the order they were created, and new ones after them', async () => {
    const auth = authRepository(database.db);
    expect(await auth.accounts.find(older)).toMatchObject({ publicId: 10000001, name: 'First', partnerId: null, wabaBalance: 0, currency: null });
    expect(await auth.accounts.find(newer)).toMatchObject({ publicId: 10000002, name: 'Second' });
    expect((await auth.accounts.find('10000002'))?.accountId).toBe(newer);
    await database.db.insertInto('accounts').values({ id: '00000000-0000-4000-8000-000000000003', name: 'Third', created_at: new Date() }).execute();
    expect((await auth.accounts.find('00000000-0000-4000-8000-000000000003'))?.publicId).toBe(10000003);
  });
});
