/**
 * Counts hits per key in fixed windows. The window id is part of the key, so a new window starts at
 * zero by construction; `ttlMs` only lets the store forget finished windows.
 */
export interface WindowCounter {
  increment(key: string, windowId: number, ttlMs: number): Promise<number>;
  /** The key's count in the window so far, without counting. */
  current(key: string, windowId: number): Promise<number>;
  close(): Promise<void>;
}

/** One process's counts. Old windows are swept as new ones begin. */
export function memoryWindowCounter(): WindowCounter {
  const counts = new Map<string, { windowId: number; count: number }>();
  let newestWindow = -Infinity;
  return {
    async increment(key, windowId) {
      if (windowId > newestWindow) {
        newestWindow = windowId;
        for (const [k, v] of counts) if (v.windowId < windowId) counts.delete(k);
      }
      const entry = counts.get(key);
      if (entry && entry.windowId === windowId) {
        entry.count += 1;
        return entry.count;
      }
      counts.set(key, { windowId, count: 1 });
      return 1;
    },
    async current(key, windowId) {
      const entry = counts.get(key);
      return entry?.windowId === windowId ? entry.count : 0;
    },
    async close() {
      counts.clear();
    },
  };
}
