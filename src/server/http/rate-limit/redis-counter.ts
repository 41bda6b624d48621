import type * as IoRedis from 'ioredis';
import { packageOnFirstUse } from '../../core/on-first-use.ts';
import type { WindowCounter } from './window-counter.ts';

const ioredis = packageOnFirstUse<typeof IoRedis>('ioredis');

/** Counts shared by every gateway process: INCR on a per-window key that expires with the window. */
export function redisWindowCounter(url: string): WindowCounter {
  // A slow or absent Redis must not hold requests: commands time out and the plugin fails open.
  const redis = new (ioredis().Redis)(url, { maxRetriesPerRequest: 1, commandTimeout: 250 });
  redis.on('error', () => {
    // Reported per call by the plugin, which fails open; the client reconnects on its own.
  });
  return {
    async increment(key, windowId, ttlMs) {
      const redisKey = `ratelimit:${key}:${windowId}`;
      const result = await redis.multi().incr(redisKey).pexpire(redisKey, ttlMs).exec();
      const [err, count] = result?.[0] ?? [new Error('empty reply'), 0];
      if (err) throw err;
      return Number(count);
    },
    async current(key, windowId) {
      return Number((await redis.get(`ratelimit:${key}:${windowId}`)) ?? 0);
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
