import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexesRead, readWhole } from '../testing/query-plans.ts';
import { insertAccountWithChannel } from '../testing/message-rows.ts';
import { createTestDatabase, databaseKind, type TestDatabase } from '../testing/test-database.ts';
import { migrateToLatest, openDatabase, type Database } from './database.ts';
import { messageSearch, messageSearchQuery } from './repositories/message-search.ts';

const at = new Date(Date.UTC(2030, 0, 1, 12));

/**
 * The search across chats reads migration 0032's full-text index, not the account's messages: on a table of
 * 20 000 messages its plan names the index. With sequential scans discouraged on both databases (PGlite's
 * planner sees its small tables as cheap to read whole); on PostgreSQL also as it plans by itself.
 */
describe(`messages found by their words through the index (${databaseKind()})`, () => {
  let testDb: TestDatabase;
  let database: Database;
  const accountId = randomUUID();
  const channelId = randomUUID();
  const chatRef = randomUUID();
  const query = { accountId, only: null, channelIds: null, terms: ['needl'], limit: 21 };

  beforeAll(async () => {
    testDb = await createTestDatabase();
    database = await openDatabase(testDb.target);
    await migrateToLatest(database.db);
    const db = database.db;
    await insertAccountWithChannel(db, { accountId, channelId, transport: 'telegram', at });
    await db.insertInto('chats').values({ id: chatRef, account_id: accountId, channel_id: channelId, chat_type: 'telegram', chat_id: '4242', unanswered: 0, created_at: at }).execute();
    // Many messages, a few with the rare word; one of those deleted, the newest a send still queued.
    await sql`
      insert into messages (id, account_id, channel_id, chat_ref, direction, status, text, deleted_at, created_at)
      select gen_random_uuid(), ${accountId}, ${channelId}, ${chatRef}, case when n = 20000 then 'outbound' else 'inbound' end,
        case when n = 20000 then 'accepted' else 'sent' end,
        case when n % 5000 = 0 then 'a Needle-' || n else 'hay number ' || n || ', как дела' end,
        case when n = 10000 then ${at}::timestamptz end, ${at}::timestamptz + n * interval '1 second'
      from generate_series(1, 20000) as n`.execute(db);
    await sql`analyze messages`.execute(db);
  });
  afterAll(async () => {
    await database.close();
    await testDb.drop();
  });

  it('finds the rare word newest first, never the deleted message nor a send still queued', async () => {
    const rows = await messageSearch(database.db).searchMessages(query);
    expect(rows.map((r) => r.text)).toEqual(['a Needle-15000', 'a Needle-5000']);
    expect((await messageSearch(database.db).searchMessages({ ...query, terms: ['needle', '150'] })).map((r) => r.text)).toEqual(['a Needle-15000']);
  });

  it('reads the full-text index, never the messages whole', async () => {
    const compiled = messageSearchQuery(database.db, query);
    await database.db.transaction().execute(async (tx) => {
      await sql`set local enable_seqscan = off`.execute(tx);
      expect(await indexesRead(tx, compiled)).toContain('messages_text_search_idx');
      expect(await readWhole(tx, compiled)).not.toContain('messages');
    });
    if (databaseKind() === 'postgres') {
      expect(await indexesRead(database.db, compiled)).toContain('messages_text_search_idx');
      expect(await readWhole(database.db, compiled)).not.toContain('messages');
    }
  });
});
