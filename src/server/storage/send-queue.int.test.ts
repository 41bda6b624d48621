import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { KnownChatEffect, MessageRecord, SendQueue } from '../core/messages/ports.ts';
import { readWhole } from '../testing/query-plans.ts';
import { createTestDatabase, databaseKind, type TestDatabase } from '../testing/test-database.ts';
import { migrateToLatest, openDatabase, type Database } from './database.ts';
import { channelsByKey } from './repositories/channels.ts';
import { claimQuery, newSendCursor, sendQueueRepository } from './repositories/send-queue.ts';

const at = new Date(Date.UTC(2030, 0, 1, 12));

describe(`the messages table as the send queue (${databaseKind()})`, () => {
  let testDb: TestDatabase;
  let database: Database;
  let sends: SendQueue;
  const accountId = randomUUID();
  const channelId = randomUUID();

  beforeAll(async () => {
    testDb = await createTestDatabase();
    database = await openDatabase(testDb.target);
    await migrateToLatest(database.db);
    sends = sendQueueRepository(database.db);
    await database.db.insertInto('accounts').values({ id: accountId, name: 'A', created_at: at }).execute();
    await database.db
      .insertInto('channels')
      .values({ id: channelId, account_id: accountId, transport: 'whatsapp', status: 'active', reason: null, phone: null, username: null, messenger_id: null, name: null, auth_url: null, tier: null, paid: true, credentials: null, qr: null, pairing: null, created_at: at, updated_at: at })
      .execute();
  });
  beforeEach(async () => {
    await database.db.deleteFrom('messages').execute();
    await database.db.deleteFrom('chats').execute();
  });
  afterAll(async () => {
    await database.close();
    await testDb.drop();
  });

  const message = (text: string, createdAt = at): Omit<MessageRecord, 'chatRef'> => ({
    id: randomUUID(),
    requestId: randomUUID(),
    accountId,
    channelId,
    direction: 'outbound',
    status: 'accepted',
    reason: null,
    text,
    attachment: null,
    template: null,
    keyboard: { type: 'inline', rows: [[{ text: 'ok' }]] } as unknown as MessageRecord['keyboard'],
    quotedMessageId: null,
    crmUserId: 'agent-1',
    resetUnanswered: true,
    messengerMessageId: null,
    createdAt,
    sentAt: null,
    deliveredAt: null,
    readAt: null,
    editedAt: null,
    deletedAt: null,
  });
  const effect = (chatId: string, overrides: Partial<KnownChatEffect> = {}): KnownChatEffect => ({
    newId: randomUUID(),
    accountId,
    channelId,
    chatType: 'whatsapp',
    chatId,
    name: null,
    resetUnanswered: true,
    lastMessageAt: at,
    ...overrides,
  });
  /** Accepts texts to chats, one statement; `chats` maps text → chat id. */
  async function accept(texts: [text: string, chatId: string][]): Promise<void> {
    const chatIds = [...new Set(texts.map(([, chatId]) => chatId))];
    await sends.acceptToKnownChats(
      chatIds.map((chatId) => effect(chatId)),
      texts.map(([text, chatId]) => ({ message: message(text), chatType: 'whatsapp', chatId })),
    );
  }
  const claimTexts = async (limit = 10, now = at) => (await sends.claim({ limit, leaseSeconds: 30, now })).map((c) => c.message.text);

  it('stores sends with their chats in one statement: a new chat is created, an existing one updated, the content kept whole', async () => {
    await database.db
      .insertInto('chats')
      .values({ id: randomUUID(), account_id: accountId, channel_id: channelId, chat_type: 'whatsapp', chat_id: '7001', name: 'Old', unanswered: 3, created_at: at })
      .execute();
    const later = new Date(at.getTime() + 60_000);
    await sends.acceptToKnownChats(
      [effect('7001', { lastMessageAt: later }), effect('7002', { name: 'New', resetUnanswered: false })],
      [
        { message: message('to existing'), chatType: 'whatsapp', chatId: '7001' },
        { message: message('to new'), chatType: 'whatsapp', chatId: '7002' },
      ],
    );
    const chats = await database.db.selectFrom('chats').selectAll().orderBy('chat_id').execute();
    expect(chats.map((c) => [c.chat_id, c.name, c.unanswered, c.last_message_at?.getTime()])).toEqual([
      ['7001', 'Old', 0, later.getTime()],
      ['7002', 'New', 0, at.getTime()],
    ]);
    const rows = await database.db.selectFrom('messages').selectAll().orderBy('seq').execute();
    expect(rows.map((m) => [m.text, m.chat_ref, m.status, m.crm_user_id])).toEqual([
      ['to existing', chats[0]!.id, 'accepted', 'agent-1'],
      ['to new', chats[1]!.id, 'accepted', 'agent-1'],
    ]);
    expect(rows[0]!.keyboard).toEqual({ type: 'inline', rows: [[{ text: 'ok' }]] });
  });

  it('hands out only the head of each chat, in the order accepted; the next one once the head is answered', async () => {
    await accept([
      ['a1', '7001'],
      ['b1', '7002'],
      ['a2', '7001'],
      ['b2', '7002'],
    ]);
    const first = await sends.claim({ limit: 10, leaseSeconds: 30, now: at });
    expect(first.map((c) => [c.message.text, c.attempt])).toEqual([
      ['a1', 1],
      ['b1', 1],
    ]);
    // Leased heads hold their chats.
    expect(await claimTexts()).toEqual([]);
    const a1 = first[0]!.message;
    await sends.recordAnswers([{ message: { ...a1, status: 'sent', messengerMessageId: 'm-1', sentAt: at }, events: [] }]);
    expect(await claimTexts()).toEqual(['a2']);
  });

  it('claims through the indexes with statistics taken while nothing was waiting to be sent', async () => {
    // A history of sent messages, analyzed (autovacuum's moment after a quiet spell), then a backlog.
    await accept(Array.from({ length: 2_000 }, (_, n): [string, string] => [`h${n}`, `7900${n}`]));
    await sql`update messages set status = 'sent'`.execute(database.db);
    await sql`analyze messages, chats`.execute(database.db);
    await accept(Array.from({ length: 400 }, (_, n): [string, string] => [`b${n}`, `7900${n % 40}`]));
    const claim = claimQuery(newSendCursor().chatRef, at, 32, 30, null).compile(database.db);
    expect((await readWhole(database.db, claim)).filter((read) => /^(messages|chats)/.test(read))).toEqual([]);
    expect(await claimTexts(32)).toHaveLength(32);
  });

  it('goes round the chats: a claim goes on from the chat after the last one taken, and then from the first again', async () => {
    // Chats A < B < C < D < E by id, the order the claims go round in.
    const ids = ['a', 'b', 'c', 'd', 'e'].map((letter, i) => [letter, `00000000-0000-4000-8000-00000000000${i + 1}`] as const);
    const chatIds = new Map(ids.map(([letter], i) => [letter, `700${i + 1}`]));
    await sends.acceptToKnownChats(
      ids.map(([letter, newId]) => effect(chatIds.get(letter)!, { newId })),
      ['a1', 'b1', 'a2', 'b2', 'c1', 'd1', 'e1'].map((text) => ({ message: message(text), chatType: 'whatsapp', chatId: chatIds.get(text[0]!)! })),
    );
    const answer = async (claims: Awaited<ReturnType<SendQueue['claim']>>) =>
      sends.recordAnswers(claims.map(({ message: m }) => ({ message: { ...m, status: 'sent', messengerMessageId: `m-${m.text}`, sentAt: at }, events: [] })));
    const first = await sends.claim({ limit: 2, leaseSeconds: 30, now: at });
    expect(first.map((c) => c.message.text)).toEqual(['a1', 'b1']);
    await answer(first);
    // a2 and b2 were accepted before c1 and d1, but C and D come next round the chats.
    const second = await sends.claim({ limit: 2, leaseSeconds: 30, now: at });
    expect(second.map((c) => c.message.text)).toEqual(['c1', 'd1']);
    await answer(second);
    // Past E the claim starts again from A, up to D; the heads come in the order they were accepted.
    expect(await claimTexts(5)).toEqual(['a2', 'b2', 'e1']);
  });

  it('sends the channel’s row once per claim, and every head of the channel gets it', async () => {
    await accept([
      ['a1', '7001'],
      ['b1', '7002'],
      ['c1', '7003'],
    ]);
    const { rows } = await database.db.executeQuery(claimQuery(newSendCursor().chatRef, at, 32, 30, null).compile(database.db));
    expect(rows.map((r) => (r as { channel: string | null }).channel !== null).sort()).toEqual([false, false, true]);
    await sql`update messages set send_lease_until = null`.execute(database.db);
    const claims = await sends.claim({ limit: 32, leaseSeconds: 30, now: at });
    expect(claims.map((c) => c.message.text).sort()).toEqual(['a1', 'b1', 'c1']);
    for (const c of claims) expect(c.channel).toMatchObject({ id: channelId, accountId, state: { status: 'active', reason: null } });
  });

  it('brings the channel along with a claim, and none once the channel is deleted', async () => {
    await accept([['a1', '7001']]);
    const [claim] = await sends.claim({ limit: 10, leaseSeconds: 1, now: at });
    expect(claim!.channel).toMatchObject({ id: channelId, accountId, transport: 'whatsapp', state: { status: 'active', reason: null }, paid: true, createdAt: at, updatedAt: at });
    await database.db.updateTable('channels').set({ deleted_at: at }).where('id', '=', channelId).execute();
    try {
      await sends.retryLater([{ messageId: claim!.message.id, at }]);
      const [again] = await sends.claim({ limit: 10, leaseSeconds: 30, now: at });
      expect(again!.message.id).toBe(claim!.message.id);
      expect(again!.channel).toBeUndefined();
    } finally {
      await database.db.updateTable('channels').set({ deleted_at: null }).where('id', '=', channelId).execute();
    }
  });

  it('puts a failed try back: its chat waits until it is due again, and the next claim counts the attempt', async () => {
    await accept([
      ['a1', '7001'],
      ['a2', '7001'],
    ]);
    const [claim] = await sends.claim({ limit: 10, leaseSeconds: 30, now: at });
    const due = new Date(at.getTime() + 2_000);
    await sends.retryLater([{ messageId: claim!.message.id, at: due }]);
    expect(await claimTexts(10, at)).toEqual([]);
    expect(await claimTexts(10, new Date(due.getTime() - 1))).toEqual([]);
    const again = await sends.claim({ limit: 10, leaseSeconds: 30, now: due });
    expect(again.map((c) => [c.message.text, c.attempt])).toEqual([['a1', 2]]);
  });

  it('gives a head to one of two senders claiming at once', async () => {
    await accept(Array.from({ length: 20 }, (_, i): [string, string] => [`m${i}`, `70${String(i).padStart(2, '0')}`]));
    const [one, two] = await Promise.all([sends.claim({ limit: 20, leaseSeconds: 30, now: at }), sends.claim({ limit: 20, leaseSeconds: 30, now: at })]);
    const ids = [...one!, ...two!].map((c) => c.message.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(20);
  });

  it('records an answer and its events only while the message is still accepted', async () => {
    await accept([['a1', '7001']]);
    const [claim] = await sends.claim({ limit: 10, leaseSeconds: 30, now: at });
    const sent = { ...claim!.message, status: 'sent' as const, messengerMessageId: 'm-1', sentAt: at };
    const event = (status: string) => ({ id: randomUUID(), accountId, name: 'message.status_update', orderingKey: `chat:${sent.chatRef}`, payload: { status }, createdAt: at });
    const delivered = { ...sent, status: 'delivered' as const, deliveredAt: at };
    await sends.recordAnswers([{ message: delivered, events: [event('sent'), event('delivered')] }]);
    // A second sender that took the same message over after the lease: nothing changes, no events.
    await sends.recordAnswers([{ message: { ...sent, status: 'failed', reason: 'network_error' }, events: [event('failed')] }]);
    const row = await database.db.selectFrom('messages').selectAll().where('id', '=', sent.id).executeTakeFirstOrThrow();
    expect([row.status, row.messenger_message_id]).toEqual(['delivered', 'm-1']);
    const events = await database.db.selectFrom('events').select(['payload']).orderBy('position').execute();
    expect(events.map((e) => (e.payload as { status: string }).status)).toEqual(['sent', 'delivered']);
  });

  it('looks channels up by account: another account’s channel is not found', async () => {
    const found = await channelsByKey(database.db, [
      { accountId, id: channelId },
      { accountId: randomUUID(), id: channelId },
      { accountId, id: randomUUID() },
    ]);
    expect(found.map((c) => c?.id ?? null)).toEqual([channelId, null, null]);
  });
});
