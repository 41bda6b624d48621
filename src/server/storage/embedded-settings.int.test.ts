import { readFile } from 'node:fs/promises';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './database.ts';
import { GATEWAY_NODE_FLAGS } from '../testing/spawned-gateway.ts';

const setting = async (database: Database, name: string) =>
  (await sql<{ setting: string }>`select current_setting(${name}) as setting`.execute(database.db)).rows[0]!.setting;

describe('the embedded database as the gateway starts it', () => {
  let database: Database;

  beforeAll(async () => {
    database = await openDatabase({ kind: 'pglite', dataDir: null });
  });
  afterAll(() => database.close());

  it('runs with a buffer cache and connection slots sized for a small server', async () => {
    expect(await setting(database, 'shared_buffers')).toBe('8MB');
    expect(await setting(database, 'max_connections')).toBe('4');
  });

  it('keeps PGlite’s own start parameters, fsync off included (commits reach the files, not the disk)', async () => {
    expect(await setting(database, 'fsync')).toBe('off');
    expect(await setting(database, 'search_path')).toBe('public');
  });
});

describe('the gateway’s Node flags', () => {
  it('are those `npm start` passes, so tests and benchmarks run the gateway as it runs', async () => {
    const pkg = JSON.parse(await readFile(new URL('../../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> };
    const start = pkg.scripts['start']!.split('&&').at(-1)!.trim().split(/\s+/);
    const flags = start.slice(start.indexOf('./src/server/preload.js') + 1, start.indexOf('src/server/main.ts'));
    expect(flags).toEqual(GATEWAY_NODE_FLAGS);
  });
});
