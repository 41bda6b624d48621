import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadRecord } from '../core/uploads/ports.ts';
import { createTestDatabase, databaseKind, type TestDatabase } from '../testing/test-database.ts';
import { migrateToLatest, openDatabase, type Database } from './database.ts';
import { uploadRepository } from './repositories/uploads.ts';
import { uploadFiles } from './upload-files.ts';

describe(`uploads kept within an account's quota, and bytes left without a record (${databaseKind()})`, () => {
  let testDb: TestDatabase;
  let database: Database;
  let dir: string;
  const at = new Date(Date.UTC(2030, 0, 1, 12));
  const since = new Date(at.getTime() - 24 * 60 * 60 * 1000);

  const newAccount = async () => {
    const id = randomUUID();
    await database.db.insertInto('accounts').values({ id, name: 'A', created_at: at }).execute();
    return id;
  };
  const record = (accountId: string, size: number, received = false): UploadRecord => ({
    id: randomUUID(),
    accountId,
    name: 'f.bin',
    mimetype: 'application/octet-stream',
    size,
    sha1: '0'.repeat(40),
    createdAt: at,
    received,
  });

  beforeAll(async () => {
    testDb = await createTestDatabase();
    database = await openDatabase(testDb.target);
    await migrateToLatest(database.db);
    dir = await mkdtemp(join(tmpdir(), 'uploads-'));
  });
  afterAll(async () => {
    await database.close();
    await testDb.drop();
    await rm(dir, { recursive: true, force: true });
  });

  // As the gateway keeps them on each database: in the table on PostgreSQL, on disk beside PGlite.
  for (const where of ['in the table', 'on disk'] as const) {
    it(`weighs uploads of one account made at the same moment one after the other (bytes ${where})`, async () => {
      const files = where === 'on disk' ? uploadFiles(join(dir, 'quota')) : null;
      const uploads = uploadRepository(database.db, files);
      const accountId = await newAccount();
      const quota = { since, limitBytes: 1_000 };
      const tries = Array.from({ length: 5 }, () => record(accountId, 400));
      const outcomes = await Promise.all(tries.map((u) => uploads.insertWithinQuota(u, Buffer.alloc(400, 1), quota)));
      // Room for two: the other three find the two kept, whichever order they ran in.
      expect(outcomes.filter((o) => o.stored)).toHaveLength(2);
      expect(outcomes.filter((o) => !o.stored).map((o) => o.usedBytes)).toEqual([800, 800, 800]);
      const kept = tries.filter((_, i) => outcomes[i]!.stored);
      for (const u of kept) expect((await uploads.open(u.id))?.content.length).toBe(400);
      for (const u of tries.filter((_, i) => !outcomes[i]!.stored)) expect(await uploads.open(u.id)).toBeUndefined();
      if (files) expect((await readdir(join(dir, 'quota'))).sort()).toEqual(kept.map((u) => u.id).sort());
      // Another account has its own room, and uploads older than the window no longer count.
      expect((await uploads.insertWithinQuota(record(await newAccount(), 1_000), Buffer.alloc(1_000), quota)).stored).toBe(true);
      const dayLater = { since: new Date(at.getTime() + 1), limitBytes: 1_000 };
      expect(await uploads.insertWithinQuota(record(accountId, 1_000), Buffer.alloc(1_000), dayLater)).toEqual({ stored: true, usedBytes: 0 });
    });
  }

  it('keeps the files customers sent whatever the quota, and counts none of them against the agents’ uploads', async () => {
    const uploads = uploadRepository(database.db, null);
    const accountId = await newAccount();
    const quota = { since, limitBytes: 1_000 };
    const customers = [record(accountId, 900, true), record(accountId, 900, true)];
    for (const file of customers) expect((await uploads.insertWithinQuota(file, Buffer.alloc(900), quota)).stored).toBe(true);
    for (const file of customers) expect((await uploads.open(file.id))?.upload.received).toBe(true);
    expect(await uploads.insertWithinQuota(record(accountId, 1_000), Buffer.alloc(1_000), quota)).toEqual({ stored: true, usedBytes: 0 });
    expect(await uploads.insertWithinQuota(record(accountId, 1), Buffer.alloc(1), quota)).toEqual({ stored: false, usedBytes: 1_000 });
  });

  it('takes the record back when the bytes cannot be kept, so the failed file takes no room', async () => {
    const disk = uploadFiles(join(dir, 'failing'));
    const failing = { ...disk, write: async () => Promise.reject(new Error('disk full')) };
    const uploads = uploadRepository(database.db, failing);
    const accountId = await newAccount();
    const quota = { since, limitBytes: 1_000 };
    const lost = record(accountId, 900);
    await expect(uploads.insertWithinQuota(lost, Buffer.alloc(900), quota)).rejects.toThrow('disk full');
    expect(await uploads.open(lost.id)).toBeUndefined();
    expect(await uploadRepository(database.db, disk).insertWithinQuota(record(accountId, 900), Buffer.alloc(900), quota)).toEqual({ stored: true, usedBytes: 0 });
  });

  it('removes kept bytes older than the bound that no upload records, and partial writes, and nothing else', async () => {
    const filesDir = join(dir, 'strays');
    const files = uploadFiles(filesDir);
    const uploads = uploadRepository(database.db, files);
    const accountId = await newAccount();
    const recorded = record(accountId, 3);
    await uploads.insertWithinQuota(recorded, Buffer.from('abc'), { since, limitBytes: 1_000 });
    const [stray, partial, fresh] = [randomUUID(), randomUUID(), randomUUID()];
    await files.write(stray, Buffer.from('left by a crash'));
    await writeFile(join(filesDir, `${partial}.part`), 'half');
    await files.write(fresh, Buffer.from('its row is on its way'));
    await writeFile(join(filesDir, 'README'), 'not ours');
    const old = new Date(Date.now() - 2 * 60 * 60 * 1000);
    for (const name of [recorded.id, stray, `${partial}.part`, 'README']) await utimes(join(filesDir, name), old, old);

    const removed = await uploads.removeStrays(new Date(Date.now() - 60 * 60 * 1000));
    expect(removed).toBe(2);
    expect((await readdir(filesDir)).sort()).toEqual([recorded.id, fresh, 'README'].sort());
    expect((await uploads.open(recorded.id))?.content.toString()).toBe('abc');
    // Where bytes are kept in the table there is nothing to look for.
    expect(await uploadRepository(database.db, null).removeStrays(new Date())).toBe(0);
  });
});
