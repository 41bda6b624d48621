import { LRUCache } from 'lru-cache';
import pThrottle from 'p-throttle';

type Paced = <T>(call: () => Promise<T>) => Promise<T>;

export interface CallLimits {
  /** Calls of one bot, whatever the chat. */
  bot: { limit: number; interval: number };
  /** Sends into one paced chat, spread evenly so that no call waits long. */
  chat: { limit: number; interval: number };
  /**
   * Answers to presses of buttons, where the platform takes them by an API call: a budget of their own, per bot and
   * per chat, kept apart from the sends' (they never wait in a send's queue, nor a send in theirs), and the longest
   * an answer may wait for its turn before it is dropped (a customer may press as often as they like).
   */
  answers?: { bot: { limit: number; interval: number }; chat: { limit: number; interval: number }; maxWaitMs: number };
}

/** An answer whose turn would come too late: dropped, not made (nothing was held for it). */
export class AnswerDropped extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AnswerDropped';
  }
}

/** Bots and chats remembered at once; beyond that the one used least recently is forgotten (it has long been idle then). */
const MAX_BOTS = 10_000;
const MAX_CHATS = 10_000;

/** Keeps at most `max` entries, each made when first asked for, forgetting the one used least recently. */
function recentlyUsed<V extends object>(max: number, create: () => V) {
  const entries = new LRUCache<string, V>({ max, memoMethod: create });
  return { get: (key: string): V => entries.memo(key), has: (key: string) => entries.has(key) };
}

/** What paces a bot's calls: in this process alone (`callPacer`), or across processes through Redis. */
export interface CallPacer {
  /**
   * `botId` names the bot without its secret (the token itself is not kept here); `chatId` is given for sends
   * only: edits and deletes, which come from requests in any number, are not held behind a chat's pace.
   */
  pace<T>(botId: string, chatId: string | null, call: () => Promise<T>): Promise<T>;
  /**
   * An answer to a press in `chatId` (null when the chat is not known: by the bot's pace alone), on the answers'
   * own budget. It waits for its turn, and is dropped (AnswerDropped, `call` not made) when that turn would come
   * later than `maxWaitMs` from now; a turn once given is kept, whatever becomes of the call.
   */
  answer<T>(botId: string, chatId: string | null, call: () => Promise<T>): Promise<T>;
}

/**
 * Keeps a bot's calls within its platform's limits, so that a campaign to many chats is spaced out here rather
 * than refused with 429 and retried: each call waits its turn, per bot, and for sends into the chats the platform
 * limits (`pacesChat`) per chat too. The send loop has at most one message of a chat in flight, so a chat's next
 * message waits one spacing at most. Per process: several processes each keep their own pace (`sharedCallPacer`
 * keeps one across processes, and falls back to this one).
 */
export function callPacer(
  limits: CallLimits,
  pacesChat: (chatId: string) => boolean,
  sizes: { bots?: number; chats?: number } = {},
): CallPacer & { remembers(botId: string, chatId?: string): boolean } {
  // Spread evenly, one call per `interval / limit`, as the pace shared through Redis does: a burst of the whole limit
  // followed by the next one an interval later would reach the platform bunched over its limit by any network jitter.
  // Weighted strict mode checks each call again against the calls actually made when its timer fires, so a stalled
  // event loop delays the calls that came due instead of letting them all go at once when it resumes.
  const throttled = (options: { limit: number; interval: number }): Paced =>
    pThrottle({ limit: 1, interval: Math.ceil(options.interval / options.limit), strict: true, weight: () => 1 })(<T>(call: () => Promise<T>) => call()) as Paced;
  const bots = recentlyUsed(sizes.bots ?? MAX_BOTS, () => throttled(limits.bot));
  const chats = recentlyUsed(sizes.chats ?? MAX_CHATS, () => throttled(limits.chat));
  // An answer's turn is taken at once (the time it may go), evenly spaced per bot and per chat, or not at all.
  const answerBots = recentlyUsed(sizes.bots ?? MAX_BOTS, () => ({ next: 0 }));
  const answerChats = recentlyUsed(sizes.chats ?? MAX_CHATS, () => ({ next: 0 }));

  return {
    pace<T>(botId: string, chatId: string | null, call: () => Promise<T>): Promise<T> {
      const viaBot = () => bots.get(botId)(call);
      return chatId !== null && pacesChat(chatId) ? chats.get(`${botId}/${chatId}`)(viaBot) : viaBot();
    },
    async answer<T>(botId: string, chatId: string | null, call: () => Promise<T>): Promise<T> {
      const budget = limits.answers;
      if (!budget) return call();
      const now = Date.now();
      const bot = answerBots.get(botId);
      const chat = chatId !== null ? answerChats.get(`${botId}/${chatId}`) : null;
      const at = Math.max(now, bot.next, chat?.next ?? 0);
      if (at - now > budget.maxWaitMs) throw new AnswerDropped(`the answer would wait ${at - now} ms for its turn`);
      bot.next = at + budget.bot.interval / budget.bot.limit;
      if (chat) chat.next = at + budget.chat.interval / budget.chat.limit;
      if (at > now) await new Promise((resolve) => setTimeout(resolve, at - now));
      return call();
    },
    /** Whether the pace of a bot, or of a bot's chat, is still remembered (for tests). */
    remembers: (botId: string, chatId?: string) => (chatId === undefined ? bots.has(botId) : chats.has(`${botId}/${chatId}`)),
  };
}
