/**
 * Phone-to-chat lookups of a personal account (WhatsApp's "is this number on WhatsApp", Telegram's
 * contacts.resolvePhone), paced and cached. Bulk checks of numbers are what gets a personal number banned fastest: each
 * channel asks one at a time, at least `gapMs` apart, and remembers each answer (a number found for a day, one not found
 * for an hour), so that a CRM sending again to the same numbers does not ask again.
 */
export interface LookupOptions {
  gapMs: number;
  foundTtlMs: number;
  missingTtlMs: number;
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const defaultLookupOptions: LookupOptions = {
  gapMs: 3_000,
  foundTtlMs: 24 * 3_600_000,
  missingTtlMs: 3_600_000,
  now: () => Date.now(),
  sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
};

/** The cache stays small: the oldest answers go first once it holds this many. */
const MAX_ENTRIES = 50_000;

export interface PhoneLookups {
  /** The answer for `phone` on `channelId`: cached, or asked through `ask` in the channel's turn. */
  resolve<T>(channelId: string, phone: string, ask: () => Promise<T>, found: (answer: T) => boolean): Promise<T>;
}

export function phoneLookups(options: Partial<LookupOptions> = {}): PhoneLookups {
  const o = { ...defaultLookupOptions, ...options };
  const cache = new Map<string, { answer: unknown; until: number }>();
  const asking = new Map<string, Promise<unknown>>();
  /** Each channel's lookups, chained so that it asks one number at a time, and when its last one ended. */
  const chains = new Map<string, Promise<unknown>>();
  const lastAt = new Map<string, number>();
  return {
    resolve<T>(channelId: string, phone: string, ask: () => Promise<T>, found: (answer: T) => boolean): Promise<T> {
      const key = `${channelId}:${phone}`;
      const hit = cache.get(key);
      if (hit && hit.until > o.now()) return Promise.resolve(hit.answer as T);
      const pending = asking.get(key);
      if (pending) return pending as Promise<T>;
      const before = chains.get(channelId) ?? Promise.resolve();
      const mine = before
        .catch(() => {})
        .then(async () => {
          const wait = (lastAt.get(channelId) ?? -Infinity) + o.gapMs - o.now();
          if (wait > 0) await o.sleep(wait);
          try {
            const answer = await ask();
            if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
            cache.set(key, { answer, until: o.now() + (found(answer) ? o.foundTtlMs : o.missingTtlMs) });
            return answer;
          } finally {
            lastAt.set(channelId, o.now());
            asking.delete(key);
          }
        });
      chains.set(channelId, mine);
      asking.set(key, mine);
      return mine;
    },
  };
}
