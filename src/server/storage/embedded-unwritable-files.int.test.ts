import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKind } from '../testing/test-database.ts';
import { isDatabaseUnavailable } from './availability.ts';
import { openDatabase, type Database } from './database.ts';

/**
 * A data directory in which nothing new can be created for a while (made read-only, or its file system out of
 * inodes), as the embedded database's file layer sees it: creating a file there fails with EACCES. Files that
 * exist stay writable, as they do when only the directory's permissions change.
 */
function refuseNewFilesUnder(dir: string): () => void {
  const root = resolve(dir);
  const { writeFileSync, mkdirSync } = fs;
  const inside = (path: fs.PathOrFileDescriptor | fs.PathLike) => typeof path === 'string' && resolve(path).startsWith(root) && !fs.existsSync(path);
  const denied = (path: string) => Object.assign(new Error(`EACCES: permission denied, open '${path}'`), { code: 'EACCES', errno: -13, syscall: 'open', path });
  fs.writeFileSync = ((path, ...rest) => {
    if (inside(path)) throw denied(String(path));
    return writeFileSync(path, ...(rest as [never]));
  }) as typeof fs.writeFileSync;
  fs.mkdirSync = ((path, ...rest) => {
    if (inside(path)) throw denied(String(path));
    return mkdirSync(path, ...(rest as [never]));
  }) as typeof fs.mkdirSync;
  return () => {
    fs.writeFileSync = writeFileSync;
    fs.mkdirSync = mkdirSync;
  };
}

// The embedded database only: PostgreSQL's own files are its server's business.
describe.skipIf(databaseKind() !== 'pglite')('the embedded database’s data directory refusing new files for a while', () => {
  let dir: string;
  let database: Database;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gw-unwritable-'));
    database = await openDatabase({ kind: 'pglite', dataDir: dir });
    await sql`create table notes (id serial primary key, body text not null)`.execute(database.db);
  }, 120_000);
  afterAll(async () => {
    await database?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const note = () => sql`insert into notes (body) values (${'n'.repeat(2_300)})`.execute(database.db);

  it('fails writes and readiness while it lasts, and takes writes to every table once it is over', { timeout: 60_000 }, async () => {
    for (let i = 0; i < 20; i++) await note();

    const restore = refuseNewFilesUnder(dir);
    let refused: unknown;
    try {
      // The table grows until the database must create a file for it (its free-space map).
      for (let i = 0; i < 200 && !refused; i++) await note().catch((err: unknown) => (refused = err));
      expect(refused, 'no write needed a new file').toBeDefined();
      expect(String((refused as Error).message)).toMatch(/could not create file/);
      expect(isDatabaseUnavailable(refused)).toBe(true);
      await expect(database.probe(), 'readiness while no file can be created').rejects.toThrow();
    } finally {
      restore();
    }

    await database.probe();
    // The same table again: before, its file stayed "existing" in the file layer's cache and missing on disk,
    // and every write to it failed until a restart.
    const outcomes = await Promise.allSettled(Array.from({ length: 10 }, note));
    expect(outcomes.filter((o) => o.status === 'rejected').map((o) => String((o as PromiseRejectedResult).reason))).toEqual([]);
  });
});
