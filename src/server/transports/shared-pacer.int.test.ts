import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerDropped, callPacer, type CallLimits } from './call-pacer.ts';
import { KEY_KEPT_PAST_MS, paceConnection, sharedCallPacer, type SharedPaceOptions } from './shared-pacer.ts';

const redisUrl = process.env.TEST_REDIS_URL;

/** Spacings far longer than the few milliseconds the test's own calls take, so that each turn is told apart. */
const limits: CallLimits = {
  bot: { limit: 1, interval: 10_000 },
  chat: { limit: 1, interval: 300_000 },
  answers: { bot: { limit: 1, interval: 25_000 }, chat: { limit: 1, interval: 60_000 }, maxWaitMs: 100_000 },
};
const BOT_SPACING = 10_000;
const CHAT_SPACING = 300_000;
/** How far a wait may fall short of its turn: the time that passed on Redis's clock between the reservations. */
const SLACK = 5000;

const ready = (redis: Redis) => (redis.status === 'ready' ? Promise.resolve() : new Promise((resolve) => redis.once('ready', resolve)));
const stamp = async () => 'made';

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// Needs a Redis server; .ci/run sets TEST_REDIS_URL when one answers on 127.0.0.1:6379.
describe.skipIf(!redisUrl)('pacing a bot’s calls across processes through Redis', () => {
  const connections: Redis[] = [];
  const run = `test-pace-${randomUUID()}`;
  let inspect: Redis;

  beforeAll(async () => {
    inspect = paceConnection(redisUrl!);
    connections.push(inspect);
    await ready(inspect);
  });
  afterAll(async () => {
    const keys = await inspect.keys(`${run}:*`);
    if (keys.length) await inspect.del(...keys);
    for (const redis of connections) await redis.quit().catch(() => redis.disconnect());
  });

  /** One gateway process: its own connection, and the waits it was told to take (nothing really waits). */
  async function gatewayProcess(keyPrefix: string, more: Partial<SharedPaceOptions> = {}) {
    // A loaded test machine may stall longer than the gateway's half second: that is not what these tests are about.
    const redis = paceConnection(redisUrl!, 10_000);
    connections.push(redis);
    await ready(redis);
    const waits: number[] = [];
    const warnings: string[] = [];
    const pacer = sharedCallPacer({
      redis,
      keyPrefix,
      limits,
      pacesChat: (chatId) => chatId.startsWith('-'),
      warn: (_err, message) => void warnings.push(message),
      sleep: async (ms) => void waits.push(ms),
      ...more,
    });
    return { pacer, waits, warnings };
  }
  const prefix = () => `${run}:${randomUUID()}`;
  /** The turns the waits stand for, in multiples of `spacing` from the first (rounded up over the time that passed). */
  const turns = (waits: number[], spacing: number) => waits.map((ms) => Math.ceil((ms + SLACK) / spacing) - 1).sort((a, b) => a - b);
  /** A wait for a turn `turn` ms after the first one taken, less the time that passed since. */
  const expectWaitFor = (wait: number | undefined, turn: number) => {
    expect(wait).toBeGreaterThan(turn - SLACK);
    expect(wait).toBeLessThanOrEqual(turn);
  };

  it('spaces one bot’s calls through two processes as one pace: interval / limit apart in all', async () => {
    const keyPrefix = prefix();
    const one = await gatewayProcess(keyPrefix);
    const two = await gatewayProcess(keyPrefix);
    const made = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? one : two).pacer.pace('bot', null, stamp)));
    expect(made).toEqual(Array(8).fill('made'));
    const waits = [...one.waits, ...two.waits];
    // The first call goes at once (no wait asked), the other seven one spacing after another.
    expect(waits).toHaveLength(7);
    expect(turns(waits, BOT_SPACING)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    // Another bot has a pace of its own.
    await one.pacer.pace('other bot', null, stamp);
    expect(one.waits.length + two.waits.length).toBe(7);
  });

  it('spaces a paced chat by its own limit across processes, and an unpaced one by the bot’s alone', async () => {
    const keyPrefix = prefix();
    const one = await gatewayProcess(keyPrefix);
    const two = await gatewayProcess(keyPrefix);
    await one.pacer.pace('bot', '-100', stamp);
    await two.pacer.pace('bot', '-100', stamp);
    // The group's second send waits the group's spacing, then for the bot's next turn (nothing really waited here,
    // so that is still one bot spacing on).
    expect(two.waits).toHaveLength(2);
    expectWaitFor(two.waits[0], CHAT_SPACING);
    expectWaitFor(two.waits[1], BOT_SPACING);

    // A private chat is held by the bot's pace only; the group send waiting for its turn did not hold the bot.
    await one.pacer.pace('bot', '42', stamp);
    await two.pacer.pace('bot', '42', stamp);
    expect(one.waits).toHaveLength(1);
    expectWaitFor(one.waits[0], 2 * BOT_SPACING);
    expectWaitFor(two.waits[2], 3 * BOT_SPACING);
  });

  it('gives answers a budget of their own, and drops one whose turn is too far without taking it', async () => {
    const keyPrefix = prefix();
    const sender = await gatewayProcess(keyPrefix);
    const one = await gatewayProcess(keyPrefix);
    const two = await gatewayProcess(keyPrefix);
    // Sends that fill the bot's and the chat's pace hold no answer up.
    await sender.pacer.pace('bot', '-1', stamp);
    await sender.pacer.pace('bot', null, stamp);
    await two.pacer.answer('bot', '-1', stamp);
    expect(two.waits).toEqual([]);
    // The chat's next answer comes 60 s on (its spacing); the one after would wait 120 s, more than 100: dropped.
    await one.pacer.answer('bot', '-1', stamp);
    expectWaitFor(one.waits[0], 60_000);
    let made = false;
    const late = two.pacer.answer('bot', '-1', async () => (made = true));
    await expect(late).rejects.toBeInstanceOf(AnswerDropped);
    await expect(late).rejects.toThrow(/the answer would wait \d+ ms for its turn/);
    expect(made).toBe(false);
    // The dropped answer took no turn of the bot's: an answer in another chat comes one bot spacing (25 s) after
    // the second, at 85 s; behind a turn taken at 120 s it would have waited 145 s, and been dropped.
    await one.pacer.answer('bot', '-2', stamp);
    expectWaitFor(one.waits[1], 85_000);
  });

  it('paces in the process alone when Redis is out of reach, makes the call, and warns at most once a minute', async () => {
    const redis = paceConnection(`redis://127.0.0.1:${await closedPort()}`);
    connections.push(redis);
    // Lost, not still being made (as at start, when nothing is warned of yet).
    await new Promise((resolve) => redis.once('reconnecting', resolve));
    let clock = 0;
    const warnings: string[] = [];
    const fallback = callPacer(limits, () => true);
    const pacer = sharedCallPacer({ redis, keyPrefix: prefix(), limits, pacesChat: () => true, fallback, warn: (_err, message) => void warnings.push(message), now: () => clock });
    expect(await pacer.pace('bot', '42', stamp)).toBe('made');
    expect(fallback.remembers('bot', '42')).toBe(true);
    expect(await pacer.answer('bot', '42', stamp)).toBe('made');
    expect(warnings).toEqual(['pacing bot calls in this process alone: Redis failed']);
    // Other bots, so that the process's own pace holds none of these calls up.
    clock = 59_999;
    await pacer.pace('bot 2', null, stamp);
    expect(fallback.remembers('bot 2')).toBe(true);
    expect(warnings).toHaveLength(1);
    clock = 60_000;
    await pacer.pace('bot 3', null, stamp);
    expect(warnings).toHaveLength(2);
  });

  it('after Redis fails, paces in the process alone for a few seconds before asking Redis again', async () => {
    let clock = 0;
    const { pacer, warnings } = await gatewayProcess(prefix(), { now: () => clock });
    const redis = connections.at(-1) as Redis & { reservePace: (...args: unknown[]) => Promise<[number, number]> };
    const reserve = redis.reservePace.bind(redis);
    let asked = 0;
    let failing = true;
    redis.reservePace = async (...args) => {
      asked++;
      if (failing) throw new Error('Command timed out');
      return reserve(...args);
    };
    expect(await pacer.pace('bot a', null, stamp)).toBe('made');
    expect([asked, warnings.length]).toEqual([1, 1]);
    // Within the pause Redis is not asked (a command that timed out may still take a turn there).
    failing = false;
    clock = 4_999;
    expect(await pacer.pace('bot b', null, stamp)).toBe('made');
    expect(asked).toBe(1);
    clock = 5_000;
    expect(await pacer.pace('bot c', null, stamp)).toBe('made');
    expect(asked).toBe(2);
  });

  it('lets the keys expire a little past the time they hold, and names them by transport and bot', async () => {
    const keyPrefix = `${prefix()}:telegram`;
    const { pacer } = await gatewayProcess(keyPrefix);
    await pacer.pace('123456', '-100', stamp);
    await pacer.answer('123456', '-100', stamp);
    const keys = (await inspect.keys(`${keyPrefix}:*`)).sort();
    expect(keys).toEqual([`${keyPrefix}:{123456}:answers`, `${keyPrefix}:{123456}:answers:chat:-100`, `${keyPrefix}:{123456}:calls`, `${keyPrefix}:{123456}:calls:chat:-100`]);
    const ttls = Object.fromEntries(await Promise.all(keys.map(async (key) => [key.slice(keyPrefix.length), await inspect.pttl(key)] as const)));
    const within = (spacing: number) => [spacing + KEY_KEPT_PAST_MS - SLACK, spacing + KEY_KEPT_PAST_MS];
    for (const [key, spacing] of [
      [':{123456}:calls', BOT_SPACING],
      [':{123456}:calls:chat:-100', CHAT_SPACING],
      [':{123456}:answers', 25_000],
      [':{123456}:answers:chat:-100', 60_000],
    ] as const) {
      const [low, high] = within(spacing);
      expect(ttls[key], key).toBeGreaterThanOrEqual(low!);
      expect(ttls[key], key).toBeLessThanOrEqual(high!);
    }
  });
});
