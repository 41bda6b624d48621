import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationProvider } from './migrations/index.ts';
import { migrateToLatest, openDatabase } from './database.ts';
import { seedFromTemplate } from './database-template.ts';

describe('a first start copies the installed database template', () => {
  let dir: string;
  let template: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'template-'));
    // The template as the install makes it: a migrated cluster, closed.
    const making = await openDatabase({ kind: 'pglite', dataDir: join(dir, 'making') });
    await migrateToLatest(making.db);
    await making.close();
    template = join(dir, 'making', 'pgdata');
  }, 120_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('copies it into an empty data directory, which then opens migrated, with nothing pending and no rows', async () => {
    const dataDir = join(dir, 'fresh');
    expect(await seedFromTemplate(join(dataDir, 'pgdata'), template)).toBe(true);
    const database = await openDatabase({ kind: 'pglite', dataDir });
    try {
      const done = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(database.db);
      expect(done.rows.map((row) => row.name)).toEqual(Object.keys(await migrationProvider.getMigrations()).sort());
      await migrateToLatest(database.db);
      expect((await sql<{ n: number }>`select count(*)::int as n from accounts`.execute(database.db)).rows[0]?.n).toBe(0);
    } finally {
      await database.close();
    }
    expect(await readdir(dataDir)).not.toContain('pgdata.copying');
  });

  it('leaves a data directory that has a database alone, and does nothing without a template', async () => {
    const dataDir = join(dir, 'kept');
    expect(await seedFromTemplate(join(dataDir, 'pgdata'), join(dir, 'no-template'))).toBe(false);
    await rm(join(dataDir), { recursive: true, force: true });
    await seedFromTemplate(join(dataDir, 'pgdata'), template);
    await writeFile(join(dataDir, 'pgdata', 'marker'), 'ours');
    expect(await seedFromTemplate(join(dataDir, 'pgdata'), template)).toBe(false);
    expect(await readdir(join(dataDir, 'pgdata'))).toContain('marker');
  });

  it('runs a migration the database has not recorded', async () => {
    const dataDir = join(dir, 'behind');
    await seedFromTemplate(join(dataDir, 'pgdata'), template);
    const database = await openDatabase({ kind: 'pglite', dataDir });
    try {
      // The newest migration forgotten: the quick check must not take the database for up to date.
      const names = Object.keys(await migrationProvider.getMigrations()).sort();
      await sql`delete from kysely_migration where name = ${names.at(-1)}`.execute(database.db);
      // The migrator runs (the migration is written to be run again) and records it once more.
      await migrateToLatest(database.db).catch(() => {});
      const again = await sql<{ n: number }>`select count(*)::int as n from kysely_migration where name = ${names.at(-1)}`.execute(database.db);
      expect(again.rows[0]?.n).toBe(1);
    } finally {
      await database.close();
    }
  });
});
