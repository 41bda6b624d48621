import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../testing/eventually.ts';
import { createTestDatabase, databaseKind, type TestDatabase } from '../testing/test-database.ts';
import { openDatabase, type Database } from './database.ts';
import { announcer, listen, SENDS_ACCEPTED } from './notifications.ts';

// Announcements are for other processes on one server; the embedded database has none, so it sends none.
describe.skipIf(databaseKind() !== 'postgres')('announcements between processes on PostgreSQL', () => {
  let target: TestDatabase;
  let database: Database;

  beforeAll(async () => {
    target = await createTestDatabase();
    database = await openDatabase(target.target);
  });
  afterAll(async () => {
    await database?.close();
    await target?.drop();
  });

  it("wakes another process's listener", async () => {
    let heard = 0;
    const listener = await listen(database, SENDS_ACCEPTED, () => heard++, (err) => { throw err; }, 'this-process');
    // A listener looks once when it starts, for whatever was raised before it listened.
    const before = heard;
    const other = announcer(database, 'another-process', (err) => { throw err; });
    try {
      other.announce(SENDS_ACCEPTED);
      await eventually(async () => (heard > before ? true : undefined), 5_000);
      expect(heard).toBeGreaterThan(before);
    } finally {
      other.close();
      await listener.close();
    }
  });
});
