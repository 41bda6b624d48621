import { systemClock } from '../core/ports.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatched, frameClient, recordInbound, type FrameClient } from '../testing/frame-client.ts';
import { openFrame } from '../testing/frames.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { createTestDatabase, databaseKind, type TestDatabase } from '../testing/test-database.ts';

const redisUrl = process.env.TEST_REDIS_URL;

// Two processes share one database only on PostgreSQL (the embedded one belongs to one process). Ending
// sessions crosses processes through Redis; .ci/run sets TEST_REDIS_URL when one answers on 127.0.0.1:6379.
describe.skipIf(databaseKind() !== 'postgres')('realtime across gateway processes on one database', () => {
  let database: TestDatabase;
  let one: TestGateway;
  let two: TestGateway;
  let card: FrameClient;
  let global: FrameClient;
  let account: { accountId: string; token: string };
  /** Every live push the global frame received, repeats included (the client keeps each id once). */
  const pushed: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    const env: Record<string, string> = { PORT: '0', ...(redisUrl ? { REDIS_URL: redisUrl } : {}) };
    one = await startTestGateway({ env, database });
    two = await startTestGateway({ env, database });
    account = await one.newAccount('A');
    card = frameClient(await one.gateway.listen(), await openFrame(one, account.token, 'chats', { user: { id: 'u1' }, scope: 'card', chats: [{ chat_type: 'telegram', chat_id: '7' }] }));
    global = frameClient(await two.gateway.listen(), await openFrame(two, account.token, 'chats', { user: { id: 'u2' }, scope: 'global' }));
    global.socket.on('event', (event) => void pushed.push(event.id));
    await Promise.all([card.connect(), global.connect()]);
  });
  afterAll(async () => {
    card?.close();
    global?.close();
    await Promise.all([one?.close(), two?.close()]);
    await database?.drop();
  });

  const deps = (t: TestGateway) => ({ store: t.gateway.store, clock: systemClock });

  it('pushes an event recorded through one process to the frames of each, once, within their scope', async () => {
    const other = await recordInbound(deps(two), account.accountId, { chat_type: 'telegram', chat_id: '8' }, 'not for the card');
    const mine = await recordInbound(deps(two), account.accountId, { chat_type: 'telegram', chat_id: '7' }, 'for the card');
    const third = await recordInbound(deps(one), account.accountId, { chat_type: 'telegram', chat_id: '9' }, 'recorded through the first');
    await dispatched(one.gateway, [other, mine, third]);
    await dispatched(two.gateway, [other, mine, third]);
    await card.until(() => card.events.length > 0, 'the card event');
    await global.until(() => global.events.length >= 3, 'every event on the global frame');
    expect(card.events.map((e) => e.id)).toEqual([mine.id]);
    expect(global.events.map((e) => e.id).sort()).toEqual([other.id, mine.id, third.id].sort());
    // Each process pushes to its own frames only: none came twice.
    expect(pushed.filter((id) => [other.id, mine.id, third.id].includes(id)).sort()).toEqual([other.id, mine.id, third.id].sort());
  });

  it.skipIf(!redisUrl)('ends a session revoked through another process', async () => {
    const sessionId = (await one.gateway.store.embedSessions.revokeOpen(account.accountId, { userId: 'u1' }, new Date()))[0]!;
    await two.gateway.realtime.end([sessionId]);
    await card.until(() => !card.socket.connected, 'the disconnect');
    expect(card.ended).toEqual([{ reason: 'revoked' }]);
  });
});
