import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { redisWindowCounter } from './redis-counter.ts';
import type { WindowCounter } from './window-counter.ts';

const redisUrl = process.env.TEST_REDIS_URL;

// Needs a Redis server; .ci/run sets TEST_REDIS_URL when one answers on 127.0.0.1:6379.
describe.skipIf(!redisUrl)('Redis fixed-window counter shared by gateway processes', () => {
  const counters: WindowCounter[] = [];
  afterAll(async () => {
    for (const c of counters) await c.close();
  });

  it('gives two processes one count per token and window', async () => {
    const a = redisWindowCounter(redisUrl!);
    const b = redisWindowCounter(redisUrl!);
    counters.push(a, b);
    const key = `test-${randomUUID()}`;
    const counts = await Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 ? a : b).increment(key, 7, 5000)));
    expect(counts.sort((x, y) => x - y)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(await a.increment(key, 8, 5000)).toBe(1);
  });
});
