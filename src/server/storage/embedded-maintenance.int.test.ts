import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing/test-database.ts';
import { migrateToLatest, openDatabase, type Database } from './database.ts';
import { maintainEmbedded } from './embedded-maintenance.ts';

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('upkeep of the embedded database', () => {
  let testDb: TestDatabase;
  let database: Database;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    database = await openDatabase(testDb.target);
    await migrateToLatest(database.db);
  });
  afterAll(async () => {
    await database.close();
    await testDb.drop();
  });

  const activity = async (table: string) =>
    (await sql<{ n_dead_tup: string; last_analyze: Date | null; last_vacuum: Date | null }>`
      select n_dead_tup, last_analyze, last_vacuum from pg_stat_user_tables where relname = ${table}`.execute(database.db)).rows[0]!;

  it('vacuums and analyzes a table its writes churned, as autovacuum would, and leaves quiet tables alone', async () => {
    await sql`insert into accounts (id, name, created_at) select gen_random_uuid(), 'a' || g, now() from generate_series(1, 200) g`.execute(database.db);
    for (let i = 0; i < 3; i++) await sql`update accounts set name = name || 'x'`.execute(database.db);
    // Counters reach the statistics views at most once a second unless asked to.
    await sql`select pg_stat_force_next_flush()`.execute(database.db);
    expect(Number((await activity('accounts')).n_dead_tup)).toBeGreaterThan(100);

    const round = await maintainEmbedded(database);
    await sql`select pg_stat_force_next_flush()`.execute(database.db);
    expect(round.vacuumed).toContain('accounts');
    expect(round.analyzed).toContain('accounts');
    expect(round.analyzed).not.toContain('webhook_settings');
    const after = await activity('accounts');
    expect(Number(after.n_dead_tup)).toBe(0);
    expect(after.last_analyze).not.toBeNull();

    // Nothing changed since: the next round has nothing to do for it.
    expect((await maintainEmbedded(database)).analyzed).not.toContain('accounts');
  });
});
