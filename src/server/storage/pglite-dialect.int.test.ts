import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type Database } from './database.ts';

describe('Kysely on PGlite: transactions own the single connection', () => {
  let database: Database;

  beforeAll(async () => {
    database = await openDatabase({ kind: 'pglite', dataDir: null });
    await migrateToLatest(database.db);
    await database.db.insertInto('accounts').values({ id: crypto.randomUUID(), name: 'x', created_at: new Date() }).execute();
  });
  afterAll(() => database.close());

  const countAll = async () => Number((await sql<{ n: string }>`select count(*) as n from accounts`.execute(database.db)).rows[0]!.n);

  it('makes a statement issued outside a transaction wait for it, rather than run inside it', async () => {
    let outside: Promise<number> | null = null;
    await expect(
      database.db.transaction().execute(async (trx) => {
        await trx.insertInto('accounts').values({ id: crypto.randomUUID(), name: 'uncommitted', created_at: new Date() }).execute();
        outside = countAll();
        // Give the outside query every chance to run now, on the shared connection.
        await new Promise((r) => setTimeout(r, 50));
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    // Had it run inside the transaction it would have counted the rolled-back row.
    expect(await outside).toBe(1);
  });

  it('commits what a transaction wrote', async () => {
    await database.db.transaction().execute(async (trx) => {
      await trx.insertInto('accounts').values({ id: crypto.randomUUID(), name: 'committed', created_at: new Date() }).execute();
    });
    expect(await countAll()).toBe(2);
  });

  it('migrating again is a no-op', async () => {
    await migrateToLatest(database.db);
    expect(await countAll()).toBe(2);
  });
});
