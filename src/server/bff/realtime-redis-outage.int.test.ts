import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callPacer, type CallLimits } from '../transports/call-pacer.ts';
import { paceConnection, sharedCallPacer } from '../transports/shared-pacer.ts';
import { eventually } from '../testing/eventually.ts';
import { frameClient } from '../testing/frame-client.ts';
import { openFrame } from '../testing/frames.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { startTcpProxy, type TcpProxy } from '../testing/tcp-proxy.ts';

const redisUrl = process.env.TEST_REDIS_URL;

// .ci/run sets TEST_REDIS_URL when a Redis server answers on 127.0.0.1:6379; the test puts a proxy in front of it.
describe.skipIf(!redisUrl)('Redis going away and coming back', () => {
  let proxy: TcpProxy;
  let t: TestGateway;
  let base: string;
  /** Sees what the gateway publishes, straight on Redis (not through the proxy). */
  let watcher: Redis;
  let inspect: Redis;
  const published: string[] = [];
  const logged: string[] = [];
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => void unhandled.push(reason);

  beforeAll(async () => {
    const server = new URL(redisUrl!);
    proxy = await startTcpProxy({ host: server.hostname, port: Number(server.port || 6379) });
    process.on('unhandledRejection', onUnhandled);
    t = await startTestGateway({
      env: { REDIS_URL: proxy.url(redisUrl!), PORT: '0' },
      logger: { level: 'warn', stream: { write: (line: string) => void logged.push(line) } },
    });
    base = await t.gateway.listen();
    watcher = new Redis(redisUrl!);
    inspect = new Redis(redisUrl!);
    await watcher.psubscribe('socket.io#*');
    watcher.on('pmessage', (_pattern, channel) => void published.push(channel));
  });
  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    await t?.close();
    for (const r of [watcher, inspect]) await r?.quit().catch(() => r.disconnect());
    await proxy?.close();
  });

  /** A frame of one CRM user, connected over socket.io. */
  async function connectedFrame(token: string, user: string) {
    const frame = frameClient(base, await openFrame(t, token, 'chats', { user: { id: user }, scope: 'global' }));
    await frame.connect();
    return frame;
  }
  const endSessionsOf = (token: string, user: string) => t.call('DELETE', `/v2/embedding/sessions?user_id=${user}`, { token });

  it('keeps serving while Redis is away (sessions still end their frames here) and fans out through it again once back', { timeout: 60_000 }, async () => {
    const { token } = await t.newAccount('Redis outage');
    const before = await connectedFrame(token, 'u0');
    expect((await endSessionsOf(token, 'u0')).statusCode).toBe(200);
    await before.until(() => before.ended.length === 1, 'session_ended before the outage');
    await eventually(async () => (published.length > 0 ? true : undefined));

    const during = await connectedFrame(token, 'u1');
    await proxy.cut();
    // The rate-limit counter fails open; the adapter's publish fails, heard and logged, not thrown.
    const res = await endSessionsOf(token, 'u1');
    expect(res.statusCode).toBe(200);
    await during.until(() => during.ended.length === 1, 'session_ended during the outage');
    await eventually(async () => (logged.some((l) => l.includes('publishing through Redis failed')) ? true : undefined), 20_000);
    expect(unhandled).toEqual([]);

    await proxy.restore();
    const after = await connectedFrame(token, 'u2');
    const publishedBefore = published.length;
    await eventually(async () => {
      expect((await endSessionsOf(token, 'u2')).statusCode).toBe(200);
      return published.length > publishedBefore ? true : undefined;
    }, 20_000);
    await after.until(() => after.ended.length === 1, 'session_ended after the outage');
    expect(unhandled).toEqual([]);
  });

  it('paces bots in the process alone while Redis is away, and through Redis again once it is back', { timeout: 60_000 }, async () => {
    const limits: CallLimits = { bot: { limit: 1, interval: 1_000 }, chat: { limit: 1, interval: 1_000 } };
    await proxy.restore();
    const redis = paceConnection(proxy.url(redisUrl!));
    const keyPrefix = `test-pace-outage-${randomUUID()}`;
    let clock = 0;
    const warnings: string[] = [];
    const fallback = callPacer(limits, () => false);
    const pacer = sharedCallPacer({ redis, keyPrefix, limits, pacesChat: () => false, fallback, warn: (_err, m) => void warnings.push(m), sleep: async () => {}, now: () => clock });
    const keysOf = async (bot: string) => (await inspect.keys(`${keyPrefix}:*${bot}*`)).length;
    try {
      await eventually(async () => (redis.status === 'ready' ? true : undefined));
      expect(await pacer.pace('bot-a', null, async () => 'made')).toBe('made');
      expect(await keysOf('bot-a')).toBe(1);

      await proxy.cut();
      expect(await pacer.pace('bot-b', null, async () => 'made')).toBe('made');
      expect(fallback.remembers('bot-b')).toBe(true);
      expect(warnings).toHaveLength(1);

      await proxy.restore();
      await eventually(async () => (redis.status === 'ready' ? true : undefined), 20_000);
      clock += 5_000;
      expect(await pacer.pace('bot-c', null, async () => 'made')).toBe('made');
      expect(await keysOf('bot-c')).toBe(1);
      expect(fallback.remembers('bot-c')).toBe(false);
    } finally {
      redis.disconnect();
    }
  });
});
