import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';

/**
 * Where a platform keeps a customer's file, as its API last said (Telegram's `getFile` path, MAX's video address),
 * kept for a short while. A player asks for one file many times (Safari's first `bytes=0-1`, then a request per
 * seek), and each would otherwise cost a call to the platform's API, on the bot's budget that its sends share. The
 * key holds a hash of the bot's token, so that a channel given another bot asks again. Kept per process and in
 * memory only: a miss costs one call.
 */
export interface ResolvedAddresses {
  /** The address remembered for the file, or the one `resolve` gives (remembered when not null). */
  get(key: { channelId: string; fileId: string; token: string }, resolve: () => Promise<string | null>): Promise<{ address: string | null; remembered: boolean }>;
  /** The address no longer serves the file (it expired or moved): the next open asks the platform again. */
  forget(key: { channelId: string; fileId: string; token: string }): void;
}

export function resolvedAddresses(options: { ttlMs: number; max?: number; clock?: { now(): number } }): ResolvedAddresses {
  const cache = new LRUCache<string, string>({ max: options.max ?? 2_000, ttl: options.ttlMs, ttlResolution: 0, ...(options.clock ? { perf: options.clock } : {}) });
  const keyOf = ({ channelId, fileId, token }: { channelId: string; fileId: string; token: string }) =>
    `${channelId}\n${fileId}\n${createHash('sha256').update(token).digest('base64url')}`;
  return {
    async get(key, resolve) {
      const id = keyOf(key);
      const known = cache.get(id);
      if (known !== undefined) return { address: known, remembered: true };
      const address = await resolve();
      if (address !== null) cache.set(id, address);
      return { address, remembered: false };
    },
    forget(key) {
      cache.delete(keyOf(key));
    },
  };
}
