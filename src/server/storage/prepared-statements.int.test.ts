import { sql, type QueryExecutorProvider } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, databaseKind, type TestDatabase } from '../testing/test-database.ts';
import { openDatabase, type Database } from './database.ts';

const at = new Date(Date.UTC(2030, 0, 1, 12, 30));

describe(`statements with parameters are prepared once and executed after (${databaseKind()})`, () => {
  let testDb: TestDatabase;
  let database: Database;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    database = await openDatabase(testDb.target);
    await sql`create table probe (id int primary key, name text, at timestamptz, doc jsonb, tags text[])`.execute(database.db);
  });
  afterAll(async () => {
    await database.close();
    await testDb.drop();
  });

  const insert = (id: number, name: string | null) =>
    sql`insert into probe (id, name, at, doc, tags) values (${id}, ${name}, ${at}, ${JSON.stringify({ n: id })}::jsonb, ${['a', `t${id}`]}) returning id`.execute(
      database.db,
    );
  const byId = (id: number) => sql<{ id: number; name: string | null; at: Date; doc: { n: number }; tags: string[] }>`select * from probe where id = ${id}`.execute(database.db);

  it('gives the same typed rows on every call of one statement, nulls included', async () => {
    for (let id = 1; id <= 12; id++) expect((await insert(id, id % 3 === 0 ? null : `n${id}`)).rows).toEqual([{ id }]);
    for (let id = 1; id <= 12; id++) {
      expect((await byId(id)).rows).toEqual([{ id, name: id % 3 === 0 ? null : `n${id}`, at, doc: { n: id }, tags: ['a', `t${id}`] }]);
    }
    expect((await byId(99)).rows).toEqual([]);
  });

  it('keeps one prepared statement per text on a connection, however often it runs', async () => {
    await database.db.connection().execute(async (db) => {
      for (let i = 0; i < 5; i++) await sql`select name from probe where id = ${i}`.execute(db);
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements where statement = 'select name from probe where id = $1'`.execute(db);
      expect(rows[0]!.n).toBe(1);
    });
  });

  it('prepares a statement again after its first 16 runs, so its plan is made for the tables as they grew', async () => {
    await database.db.connection().execute(async (db) => {
      const text = 'select name from probe where id = $1 and name is not null';
      const select = (id: number) => sql`select name from probe where id = ${id} and name is not null`.execute(db);
      const prepared = async () =>
        (
          await sql<{ statements: number; runs: number }>`
            select count(*)::int as statements, coalesce(sum(generic_plans + custom_plans), 0)::int as runs
            from pg_prepared_statements where statement = ${text}`.execute(db)
        ).rows[0]!;
      for (let i = 0; i < 15; i++) await select(i);
      expect(await prepared()).toEqual({ statements: 1, runs: 15 });
      await select(15);
      await select(16);
      // The 16th run was the old statement's last; the 17th is the new one's first.
      expect(await prepared()).toEqual({ statements: 1, runs: 1 });
    });
  });

  it('prepares statements again inside a transaction without queueing queries or touching the transaction', async () => {
    // `pg` warns (once per process) when a query is sent while another waits: deprecated, an error in pg 9.
    const queued: string[] = [];
    const onWarning = (w: Error) => {
      if (/already executing a query/.test(w.message)) queued.push(w.message);
    };
    process.on('warning', onWarning);
    const texts = ['select name from probe where id = $1 and id > 0', 'select name from probe where id = $1 and id > 1'];
    const preparedOf = async (db: QueryExecutorProvider) =>
      (
        await sql<{ statement: string; runs: number }>`
          select statement, (generic_plans + custom_plans)::int as runs from pg_prepared_statements
          where statement in (${texts[0]}, ${texts[1]}) order by statement, runs`.execute(db)
      ).rows;
    try {
      await database.db.connection().execute(async (db) => {
        const inTransaction = await db.transaction().execute(async (trx) => {
          // Both statements reach their 16th run one after the other, then run once more each.
          for (let i = 0; i < 17; i++) {
            await sql`select name from probe where id = ${i} and id > 0`.execute(trx);
            await sql`select name from probe where id = ${i} and id > 1`.execute(trx);
          }
          await sql`insert into probe (id, name) values (${200}, ${'kept'})`.execute(trx);
          return preparedOf(trx);
        });
        if (databaseKind() === 'postgres') {
          // Within the transaction the old statements are left allocated beside the new ones.
          expect(inTransaction).toEqual([
            { statement: texts[0], runs: 1 },
            { statement: texts[0], runs: 16 },
            { statement: texts[1], runs: 1 },
            { statement: texts[1], runs: 16 },
          ]);
        }
        // The next query outside a transaction drops them first.
        expect(await preparedOf(db)).toEqual([
          { statement: texts[0], runs: 1 },
          { statement: texts[1], runs: 1 },
        ]);
      });
      expect((await byId(200)).rows[0]).toMatchObject({ id: 200, name: 'kept' });
      expect(queued).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('reports affected rows of a prepared update', async () => {
    const result = await database.db.updateTable('probe' as never).set({ name: 'renamed' } as never).where('id' as never, '<=', 4 as never).executeTakeFirst();
    expect(Number((result as { numUpdatedRows: bigint }).numUpdatedRows)).toBe(4);
  });

  it('passes an error to its caller, and the statement works afterwards', async () => {
    await expect(insert(1, 'duplicate')).rejects.toMatchObject({ code: '23505' });
    expect((await insert(13, 'after')).rows).toEqual([{ id: 13 }]);
  });

  it('rolls back with the transaction it ran in', async () => {
    await expect(
      database.db.transaction().execute(async (trx) => {
        await sql`insert into probe (id, name) values (${100}, ${'in tx'})`.execute(trx);
        expect((await sql<{ n: number }>`select count(*)::int as n from probe where id = ${100}`.execute(trx)).rows[0]!.n).toBe(1);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect((await byId(100)).rows).toEqual([]);
  });

  it('prepares again when a migration changed the columns a statement returns', async () => {
    expect(Object.keys((await byId(2)).rows[0]!)).not.toContain('added');
    await sql`alter table probe add column added int default 7`.execute(database.db);
    // PostgreSQL refuses the old statement once ("cached plan must not change result type"); then it is prepared anew.
    const again = await byId(2).catch(() => byId(2));
    expect(again.rows[0]).toMatchObject({ id: 2, added: 7 });
  });

  it('still runs statements beyond the number it keeps prepared', async () => {
    // Texts that differ each time (here by an alias), as `in ($1, $2, …)` lists of every length do.
    for (let i = 0; i < 520; i++) {
      const { rows } = await sql<{ v: number }>`select ${i}::int as ${sql.ref(`v${i}`)}`.execute(database.db);
      expect(Object.values(rows[0]!)).toEqual([i]);
    }
  });
});
