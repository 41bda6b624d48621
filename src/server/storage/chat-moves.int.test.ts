import { randomUUID } from 'node:crypto';
import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAccountWithChannel } from '../testing/message-rows.ts';
import { createTestDatabase, databaseKind, type TestDatabase } from '../testing/test-database.ts';
import { migrateToLatest, openDatabase, type Database } from './database.ts';
import { migrationProvider } from './migrations/index.ts';
import { chatRepository } from './repositories/chats.ts';
import { messageRepository } from './repositories/messages.ts';

const at = new Date(Date.UTC(2030, 0, 1, 12));

describe(`a chat the messenger moves to another id (${databaseKind()})`, () => {
  let testDb: TestDatabase;
  let database: Database;
  const accountId = randomUUID();
  const channelId = randomUUID();
  const group = randomUUID();
  const taken = randomUUID();
  const chatIdOf = async (id: string) => (await database.db.selectFrom('chats').select(['chat_id', 'name']).where('id', '=', id).executeTakeFirstOrThrow());

  beforeAll(async () => {
    testDb = await createTestDatabase();
    database = await openDatabase(testDb.target);
    await migrateToLatest(database.db);
    const db = database.db;
    await insertAccountWithChannel(db, { accountId, channelId, transport: 'telegram', at });
    await db
      .insertInto('chats')
      .values([
        { id: group, account_id: accountId, channel_id: channelId, chat_type: 'telegroup', chat_id: '-555', name: 'Buyers', unanswered: 3, created_at: at },
        { id: taken, account_id: accountId, channel_id: channelId, chat_type: 'telegroup', chat_id: '-100777', unanswered: 0, created_at: at },
      ])
      .execute();
    await sql`
      insert into messages (id, account_id, channel_id, chat_ref, direction, status, text, messenger_message_id, created_at)
      values (gen_random_uuid(), ${accountId}, ${channelId}, ${group}, 'inbound', 'sent', 'one', '1', ${at}),
        (gen_random_uuid(), ${accountId}, ${channelId}, ${group}, 'inbound', 'sent', 'caption', '2:caption', ${at}),
        (gen_random_uuid(), ${accountId}, ${channelId}, ${group}, 'outbound', 'accepted', 'unanswered yet', null, ${at}),
        (gen_random_uuid(), ${accountId}, ${channelId}, ${group}, 'inbound', 'sent', 'older', '-1/9', ${at})`.execute(db);
  });
  afterAll(async () => {
    await database.close();
    await testDb.drop();
  });

  it('does not fail its transaction when another chat has the new id: the chat keeps its own, the work goes on', async () => {
    const moved = await database.db.transaction().execute(async (trx) => {
      // Written as a send's recording would be, without looking first: the unique index refuses the id.
      const result = await chatRepository(trx).moveMessengerId(group, '-555', '-100777');
      await trx.updateTable('chats').set({ unanswered: 0 }).where('id', '=', group).execute();
      return result;
    });
    expect(moved).toBe(false);
    expect(await chatIdOf(group)).toEqual({ chat_id: '-555', name: 'Buyers' });
    expect((await database.db.selectFrom('chats').select('unanswered').where('id', '=', group).executeTakeFirstOrThrow()).unanswered).toBe(0);
  });

  it('writes only the id, and only while the chat still has the old one', async () => {
    await database.db.transaction().execute(async (trx) => {
      expect(await chatRepository(trx).moveMessengerId(group, '-556', '-100555')).toBe(false);
      expect(await chatRepository(trx).moveMessengerId(group, '-555', '-100555')).toBe(true);
    });
    expect(await chatIdOf(group)).toEqual({ chat_id: '-100555', name: 'Buyers' });
  });

  it('marks the history’s numbers as the old id’s, in one statement, leaving those marked already', async () => {
    await messageRepository(database.db).markMovedFrom(group, '-555');
    const rows = await database.db.selectFrom('messages').select(['text', 'messenger_message_id']).where('chat_ref', '=', group).orderBy('text').execute();
    expect(rows).toEqual([
      { text: 'caption', messenger_message_id: '-555/2:caption' },
      { text: 'older', messenger_message_id: '-1/9' },
      { text: 'one', messenger_message_id: '-555/1' },
      { text: 'unanswered yet', messenger_message_id: null },
    ]);
    expect(await messageRepository(database.db).findByMessengerId(group, '1')).toBeUndefined();
  });
});

describe(`migration 0016, the messenger-number index (${databaseKind()})`, () => {
  let testDb: TestDatabase;
  let database: Database;
  const indexes = async () =>
    (await sql<{ indexname: string }>`select indexname from pg_indexes where tablename = 'messages' and indexname = 'messages_messenger_id_idx'`.execute(database.db)).rows;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    database = await openDatabase(testDb.target);
    await migrateToLatest(database.db);
  });
  afterAll(async () => {
    await database.close();
    await testDb.drop();
  });

  it('goes down, and up again over an index an operator built beforehand, concurrently', async () => {
    const migrator = new Migrator({ db: database.db, provider: migrationProvider });
    const down = await migrator.migrateTo('0015_follow_up_bounds');
    expect(down.error).toBeUndefined();
    // Newer migrations go down first; 0016 is the last to.
    expect(down.results?.at(-1)).toMatchObject({ migrationName: '0016_messenger_message_index', direction: 'Down', status: 'Success' });
    expect(down.results?.every((r) => r.status === 'Success')).toBe(true);
    expect(await indexes()).toEqual([]);
    // The README's statement, outside any transaction, as an operator runs it before upgrading.
    await sql`create index concurrently if not exists messages_messenger_id_idx on messages (chat_ref, messenger_message_id) where messenger_message_id is not null`.execute(database.db);
    const up = await migrator.migrateToLatest();
    expect(up.error).toBeUndefined();
    expect(up.results?.[0]).toMatchObject({ migrationName: '0016_messenger_message_index', status: 'Success' });
    expect(up.results?.every((r) => r.status === 'Success')).toBe(true);
    expect(await indexes()).toEqual([{ indexname: 'messages_messenger_id_idx' }]);
  });
});
