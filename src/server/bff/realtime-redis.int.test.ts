import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { frameClient, type FrameClient } from '../testing/frame-client.ts';
import { openFrame } from '../testing/frames.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { databaseKind } from '../testing/test-database.ts';

const redisUrl = process.env.TEST_REDIS_URL;

// Needs a Redis server; .ci/run sets TEST_REDIS_URL when one answers on 127.0.0.1:6379.
describe.skipIf(!redisUrl)(`realtime fan-out across gateway processes through Redis (${databaseKind()})`, () => {
  let one: TestGateway;
  let two: TestGateway;
  let client: FrameClient;
  let account: { accountId: string; token: string };

  beforeAll(async () => {
    const env = { PORT: '0', REDIS_URL: redisUrl! };
    [one, two] = await Promise.all([startTestGateway({ env }), startTestGateway({ env })]);
    account = await one.newAccount('A');
    client = frameClient(await one.gateway.listen(), await openFrame(one, account.token, 'chats', { user: { id: 'u1' }, scope: 'card', chats: [{ chat_type: 'telegram', chat_id: '7' }] }));
    await client.connect();
  });
  afterAll(async () => {
    client?.close();
    await Promise.all([one?.close(), two?.close()]);
  });

  const event = (chatId: string, position: number) => ({
    id: randomUUID(),
    accountId: account.accountId,
    name: 'message.add',
    orderingKey: null,
    payload: { recipient: { chat_type: 'telegram', chat_id: chatId }, text: `to ${chatId}` },
    createdAt: new Date(),
    dispatchedAt: null,
    position,
  });

  it('delivers an event dispatched by another process to a frame connected here, within its scope', async () => {
    const other = event('8', 1);
    const mine = event('7', 2);
    await two.gateway.realtime.consume([other]);
    await two.gateway.realtime.consume([mine]);
    await client.until(() => client.events.length > 0, 'the event through Redis');
    expect(client.events.map((e) => e.id)).toEqual([mine.id]);
  });

  it('ends a session revoked through another process', async () => {
    const sessionId = (await one.gateway.store.embedSessions.revokeOpen(account.accountId, {}, new Date()))[0]!;
    await two.gateway.realtime.end([sessionId]);
    await client.until(() => !client.socket.connected, 'the disconnect');
    expect(client.ended).toEqual([{ reason: 'revoked' }]);
  });
});
