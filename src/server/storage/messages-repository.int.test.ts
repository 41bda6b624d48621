import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexesRead, readWhole } from '../testing/query-plans.ts';
import { insertAccountWithChannel } from '../testing/message-rows.ts';
import { createTestDatabase, databaseKind, type TestDatabase } from '../testing/test-database.ts';
import { migrateToLatest, openDatabase, type Database } from './database.ts';
import { byMessengerIdQuery, messageRepository } from './repositories/messages.ts';

const at = new Date(Date.UTC(2030, 0, 1, 12));

describe(`messages by the messenger's number for them (${databaseKind()})`, () => {
  let testDb: TestDatabase;
  let database: Database;
  const accountId = randomUUID();
  const channelId = randomUUID();
  const chatRef = randomUUID();
  const otherChatRef = randomUUID();

  beforeAll(async () => {
    testDb = await createTestDatabase();
    database = await openDatabase(testDb.target);
    await migrateToLatest(database.db);
    const db = database.db;
    await insertAccountWithChannel(db, { accountId, channelId, transport: 'telegram', at });
    await db
      .insertInto('chats')
      .values([
        { id: chatRef, account_id: accountId, channel_id: channelId, chat_type: 'telegram', chat_id: '4242', unanswered: 0, created_at: at },
        { id: otherChatRef, account_id: accountId, channel_id: channelId, chat_type: 'telegram', chat_id: '5555', unanswered: 0, created_at: at },
      ])
      .execute();
    // A long conversation numbered 1…3000 (every tenth send still unanswered, without a number), and another chat.
    await sql`
      insert into messages (id, account_id, channel_id, chat_ref, direction, status, text, messenger_message_id, created_at)
      select gen_random_uuid(), ${accountId}, ${channelId}, ${chatRef}, 'inbound', 'sent', 'message ' || n,
        case when n % 10 = 0 then null else n::text end, ${at}::timestamptz + n * interval '1 second'
      from generate_series(1, 3000) as n`.execute(db);
    await sql`
      insert into messages (id, account_id, channel_id, chat_ref, direction, status, text, messenger_message_id, created_at)
      values (gen_random_uuid(), ${accountId}, ${channelId}, ${otherChatRef}, 'inbound', 'sent', 'elsewhere', '7', ${at})`.execute(db);
    await sql`analyze messages`.execute(db);
  });
  afterAll(async () => {
    await database.close();
    await testDb.drop();
  });

  it('finds a message however far back in its chat, and only in its chat', async () => {
    const messages = messageRepository(database.db);
    expect(await messages.findByMessengerId(chatRef, '7')).toMatchObject({ text: 'message 7', chatRef, messengerMessageId: '7' });
    expect(await messages.findByMessengerId(chatRef, '2999')).toMatchObject({ text: 'message 2999' });
    expect(await messages.findByMessengerId(otherChatRef, '7')).toMatchObject({ text: 'elsewhere' });
    expect(await messages.findByMessengerId(otherChatRef, '8')).toBeUndefined();
    expect(await messages.findByMessengerId(chatRef, '3001')).toBeUndefined();
  });

  it('reads it through the (chat_ref, messenger_message_id) index, not the chat’s history', async () => {
    const lookup = byMessengerIdQuery(database.db, chatRef, '7').compile();
    expect(await indexesRead(database.db, lookup)).toEqual(['messages_messenger_id_idx']);
    expect(await readWhole(database.db, lookup)).toEqual([]);
  });
});
