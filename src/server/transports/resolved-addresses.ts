import { LRUCache } from 'lru-cache';

/**
 * Where a platform keeps a customer's file, as its API last said (Telegram's `getFile` path, MAX's video address),
 * kept for a short while. A player asks for one file many times (Safari's first `bytes=0-1`, then a request per
 * seek), and each would otherwise cost a call to the platform's API, on the bot's budget that its sends share. The
 * key names the bot (a digest of its token), so that a channel given another bot asks again. Kept per process and
 * in memory only: a miss costs one call.
 */
export interface ResolvedAddresses {
  /**
   * Opens the file at its kept address, or at the one `resolve` gives (null: the platform no longer has the file).
   * An address is kept once it served; a kept one that fails (expired, moved, or its server failing) is dropped,
   * and the file is looked up once more and opened there, whose failure is the answer.
   */
  open<T>(key: { channelId: string; fileId: string; bot: string }, resolve: () => Promise<string | null>, open: (address: string) => Promise<T | null>): Promise<T | null>;
}

export function resolvedAddresses(options: { ttlMs: number; max?: number; clock?: { now(): number } }): ResolvedAddresses {
  const cache = new LRUCache<string, string>({ max: options.max ?? 2_000, ttl: options.ttlMs, ttlResolution: 0, ...(options.clock ? { perf: options.clock } : {}) });
  return {
    async open(key, resolve, open) {
      const id = `${key.channelId}\n${key.fileId}\n${key.bot}`;
      const kept = cache.get(id);
      if (kept !== undefined) {
        const opened = await open(kept).catch(() => null);
        if (opened !== null) return opened;
        cache.delete(id);
      }
      const address = await resolve();
      if (address === null) return null;
      const opened = await open(address);
      if (opened !== null) cache.set(id, address);
      return opened;
    },
  };
}
