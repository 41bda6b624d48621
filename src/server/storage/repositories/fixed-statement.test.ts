import { Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql, type CompiledQuery, type DatabaseConnection, type Driver } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { DatabaseSchema } from '../schema.ts';
import { fixedStatement } from './fixed-statement.ts';
import { anyUuid, jsonRows } from './json-rows.ts';

/** A Kysely whose connection only records what it is asked to run. */
function recordingDb(): { db: Kysely<DatabaseSchema>; sent: CompiledQuery[] } {
  const sent: CompiledQuery[] = [];
  const connection: DatabaseConnection = {
    executeQuery: async (query) => {
      sent.push(query);
      return { rows: [] };
    },
    streamQuery: () => {
      throw new Error('not used');
    },
  };
  const driver: Driver = {
    init: async () => {},
    acquireConnection: async () => connection,
    beginTransaction: async () => {},
    commitTransaction: async () => {},
    rollbackTransaction: async () => {},
    releaseConnection: async () => {},
    destroy: async () => {},
  };
  const db = new Kysely<DatabaseSchema>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => driver,
      createIntrospector: (k) => new PostgresIntrospector(k),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
  return { db, sent };
}

describe('a fixed statement', () => {
  it('is built once and sent with each call’s values in the places its builder gave them', async () => {
    const { db, sent } = recordingDb();
    let builds = 0;
    const statement = fixedStatement((after, ids, rows) => {
      builds++;
      return sql`select * from ${jsonRows('r', { id: 'uuid' }, rows)} where r.id = ${anyUuid(ids)} and ${after} < 10 and ${after} > 0`;
    });
    await statement(db, 3, ['a'], '[{"id":"a"}]');
    await statement(db, 7, ['b', 'c'], '[]');
    expect(builds).toBe(1);
    expect(sent.map((q) => q.sql)).toEqual([sent[0]!.sql, sent[0]!.sql]);
    expect(sent[0]!.sql).toBe('select * from jsonb_to_recordset($1::jsonb) as r (id uuid) where r.id = any($2::uuid[]) and $3 < 10 and $4 > 0');
    expect(sent.map((q) => q.parameters)).toEqual([
      ['[{"id":"a"}]', ['a'], 3, 3],
      ['[]', ['b', 'c'], 7, 7],
    ]);
  });

  it('refuses a builder that puts a value of its own into the statement, and a call with the wrong number of values', async () => {
    const { db } = recordingDb();
    const frozen = fixedStatement((id) => sql`select * from events where id = ${id} and name = ${'message.add'}`);
    await expect(() => frozen(db, 'x')).toThrow(/no value but its slots/);
    const one = fixedStatement((id) => sql`select * from events where id = ${id}`);
    await expect(() => one(db, 'x', 'y')).toThrow(/takes 1 values, not 2/);
  });
});
