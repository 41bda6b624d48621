import pThrottle from 'p-throttle';

type Paced = <T>(call: () => Promise<T>) => Promise<T>;

export interface PacerLimits {
  /** Calls of one bot (Telegram allows about 30 messages a second). */
  bot: { limit: number; interval: number };
  /** Calls into one group (Telegram allows 20 messages a minute), spread evenly so that no call waits long. */
  group: { limit: number; interval: number };
}

/** Below Telegram's own figures (30 a second, 20 a minute), so that network jitter cannot bunch calls over them. */
export const telegramLimits: PacerLimits = { bot: { limit: 25, interval: 1000 }, group: { limit: 1, interval: 3500 } };

/** Groups remembered at once; beyond that the oldest is forgotten (it has long been idle at this point). */
const MAX_GROUPS = 10_000;

/**
 * Keeps a bot's calls within Telegram's limits, so that a campaign to many chats is spaced out here rather than
 * refused with 429 and retried: each call waits its turn, per bot and per group chat (negative chat ids). Only
 * sends are paced per group, and the send loop has at most one message of a chat in flight, so a group's next
 * message waits one spacing at most; per bot, 64 sends in flight wait under three seconds.
 * Per process: several processes each keep their own pace.
 */
export function botPacer(limits: PacerLimits = telegramLimits) {
  const bots = new Map<string, Paced>();
  const groups = new Map<string, Paced>();
  const throttled = (options: { limit: number; interval: number }): Paced => pThrottle({ ...options, strict: true })(<T>(call: () => Promise<T>) => call()) as Paced;

  function forBot(botId: string): Paced {
    let paced = bots.get(botId);
    if (!paced) bots.set(botId, (paced = throttled(limits.bot)));
    return paced;
  }

  function forGroup(key: string): Paced {
    let paced = groups.get(key);
    if (!paced) {
      if (groups.size >= MAX_GROUPS) groups.delete(groups.keys().next().value!);
      groups.set(key, (paced = throttled(limits.group)));
    }
    return paced;
  }

  return {
    /** `botId`: the digits before the token's colon (the token itself is not kept here). */
    pace<T>(botId: string, chatId: string | null, call: () => Promise<T>): Promise<T> {
      const viaBot = () => forBot(botId)(call);
      return chatId !== null && chatId.startsWith('-') ? forGroup(`${botId}/${chatId}`)(viaBot) : viaBot();
    },
  };
}
