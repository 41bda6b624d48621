import { setTimeout as sleepFor } from 'node:timers/promises';
import type * as IoRedis from 'ioredis';
import type { Redis } from 'ioredis';
import { packageOnFirstUse } from '../core/on-first-use.ts';
import { AnswerDropped, callPacer, type CallLimits, type CallPacer } from './call-pacer.ts';

// Loaded only when the gateway runs with Redis.
const ioredis = packageOnFirstUse<typeof IoRedis>('ioredis');

/** Where the gateway's pacing keys live in Redis: `<this>:<transport>:{<bot id>}…`. */
export const PACE_KEY_PREFIX = 'messaging-gateway:pace';

/** How long a key outlives the time it holds: long enough to be read while it matters, then gone (idle bots cost nothing). */
export const KEY_KEPT_PAST_MS = 1000;

/** Warnings that Redis failed are logged at most this often (every call would otherwise log one while it is down). */
const WARN_EVERY_MS = 60_000;
/**
 * After Redis fails, the calls are paced in the process alone for this long before Redis is asked again. A command
 * that timed out may still run on Redis and take a turn nobody uses; asked on every call while Redis is slow, those
 * unused turns would pile up into a wait that outlasts the sends' deadlines once Redis answers again.
 */
const FALL_BACK_FOR_MS = 5_000;

// Each key holds the earliest time (ms, on Redis's clock) its bot's or chat's next call may go. Redis's own TIME is
// the clock so that processes whose clocks disagree still agree on the turns. A script runs alone, so two processes
// never take the same turn.
const CLOCK = `
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local function free_at(key) return tonumber(redis.call('GET', key) or 0) end
local function hold(key, next_at)
  redis.call('SET', key, string.format('%d', next_at), 'PX', next_at - now + tonumber(ARGV[4]))
end
`;

/**
 * A send's turn. KEYS: the bot's, and the chat's when the chat is paced; ARGV: the bot's and the chat's spacing (ms),
 * the step (`chat` first, then `bot`), how long keys outlive their time. Returns {wait (ms), whether the bot's turn
 * is still to take}. A chat that must wait takes only its own turn: the bot's is taken once that comes, so that a
 * call waiting for its chat never holds the bot's calls into other chats (as a bot turn taken ahead would).
 */
const RESERVE_PACE = `${CLOCK}
local bot, chat = KEYS[1], KEYS[2]
if chat and ARGV[3] == 'chat' then
  local chat_at = math.max(now, free_at(chat))
  if chat_at > now then
    hold(chat, chat_at + tonumber(ARGV[2]))
    return {chat_at - now, 1}
  end
end
local at = math.max(now, free_at(bot))
hold(bot, at + tonumber(ARGV[1]))
if chat then hold(chat, math.max(free_at(chat), at + tonumber(ARGV[2]))) end
return {at - now, 0}
`;

/**
 * An answer's turn, on keys of the answers' own. ARGV: the bot's and the chat's spacing, the longest wait, how long
 * keys outlive their time. Returns {wait, 1 when dropped}: a turn later than the longest wait is not taken at all.
 */
const RESERVE_ANSWER = `${CLOCK}
local bot, chat = KEYS[1], KEYS[2]
local at = math.max(now, free_at(bot))
if chat then at = math.max(at, free_at(chat)) end
if at - now > tonumber(ARGV[3]) then return {at - now, 1} end
hold(bot, at + tonumber(ARGV[1]))
if chat then hold(chat, at + tonumber(ARGV[2])) end
return {at - now, 0}
`;

type Reserve = (keyCount: number, ...keysAndArgs: (string | number)[]) => Promise<[number, number]>;
/** A connection with the pacing scripts defined on it (once, whichever pacers share it). */
export type PacingRedis = Redis & { reservePace: Reserve; reserveAnswer: Reserve };

/**
 * A connection for pacing: a slow or absent Redis must not hold sends up, so commands fail fast (and the pacer falls
 * back to its own pace) rather than wait in a queue for Redis to come back.
 */
export function paceConnection(url: string, commandTimeoutMs = 500): PacingRedis {
  // A command given up on is not sent again after a reconnect: its call was made meanwhile, and its turn would go unused.
  const redis = new (ioredis().Redis)(url, { commandTimeout: commandTimeoutMs, maxRetriesPerRequest: 1, enableOfflineQueue: false, autoResendUnfulfilledCommands: false });
  redis.on('error', () => {
    // Reported by the pacer, at most once a minute; the client reconnects on its own.
  });
  redis.defineCommand('reservePace', { lua: RESERVE_PACE });
  redis.defineCommand('reserveAnswer', { lua: RESERVE_ANSWER });
  return redis as PacingRedis;
}

export interface SharedPaceOptions {
  redis: PacingRedis;
  /** Names the gateway and the transport: the keys are `<keyPrefix>:{<bot id>}…` (never a token). */
  keyPrefix: string;
  limits: CallLimits;
  pacesChat(chatId: string): boolean;
  /** Paces the calls Redis could not: this process's own pace, as without Redis. */
  fallback?: CallPacer;
  warn(err: unknown, message: string): void;
  sleep?(ms: number): Promise<void>;
  /** The clock of the warnings' spacing and of the pause after a failure (the turns follow Redis's clock). */
  now?(): number;
}

const spacing = (rate: { limit: number; interval: number }) => Math.ceil(rate.interval / rate.limit);

/**
 * Keeps a bot's pace across every gateway process through Redis: each call takes its turn there (the earliest its
 * bot and, when paced, its chat allow) and then waits for it here. A process that dies while waiting leaves its turn
 * unused. Should Redis fail, the call is paced by this process alone, and made all the same.
 */
export function sharedCallPacer(options: SharedPaceOptions): CallPacer {
  const { limits, keyPrefix } = options;
  const { redis } = options;
  const local = options.fallback ?? callPacer(limits, options.pacesChat);
  const sleep = options.sleep ?? ((ms: number) => sleepFor(ms));
  const paceSpacing = [spacing(limits.bot), spacing(limits.chat)] as const;
  const answerSpacing = limits.answers ? ([spacing(limits.answers.bot), spacing(limits.answers.chat)] as const) : null;
  const now = options.now ?? Date.now;
  let warnedAt = -Infinity;
  let askAgainAt = -Infinity;
  const unreachable = (err: unknown) => {
    askAgainAt = now() + FALL_BACK_FOR_MS;
    if (now() - warnedAt < WARN_EVERY_MS) return;
    warnedAt = now();
    options.warn(err, 'pacing bot calls in this process alone: Redis failed');
  };
  /**
   * Whether Redis is asked for this call: connected, and not failed in the last few seconds. A connection lost (not
   * one still being made at start) is warned of as a failure is.
   */
  const shared = () => {
    if (redis.status === 'ready') return now() >= askAgainAt;
    if (redis.status === 'reconnecting' || redis.status === 'close' || redis.status === 'end') unreachable(new Error(`the connection to Redis is ${redis.status}`));
    return false;
  };
  // The bot's id in braces: a Redis cluster keeps a bot's keys together, as one script needs.
  const botKey = (botId: string, budget: string) => `${keyPrefix}:{${botId}}:${budget}`;
  const chatKey = (botId: string, budget: string, chatId: string) => `${botKey(botId, budget)}:chat:${chatId}`;
  const waitFor = (ms: number) => (ms > 0 ? sleep(ms) : Promise.resolve());

  return {
    async pace<T>(botId: string, chatId: string | null, call: () => Promise<T>): Promise<T> {
      if (!shared()) return local.pace(botId, chatId, call);
      const keys = [botKey(botId, 'calls')];
      if (chatId !== null && options.pacesChat(chatId)) keys.push(chatKey(botId, 'calls', chatId));
      const reserve = (step: 'chat' | 'bot') => redis.reservePace(keys.length, ...keys, ...paceSpacing, step, KEY_KEPT_PAST_MS);
      let chatWaited = false;
      try {
        const [wait, botToCome] = await reserve('chat');
        await waitFor(wait);
        if (botToCome === 1) {
          chatWaited = true;
          await waitFor((await reserve('bot'))[0]);
        }
      } catch (err) {
        unreachable(err);
        return local.pace(botId, chatWaited ? null : chatId, call);
      }
      return call();
    },
    async answer<T>(botId: string, chatId: string | null, call: () => Promise<T>): Promise<T> {
      const budget = limits.answers;
      if (!budget || !answerSpacing) return call();
      if (!shared()) return local.answer(botId, chatId, call);
      const keys = [botKey(botId, 'answers')];
      if (chatId !== null) keys.push(chatKey(botId, 'answers', chatId));
      let reply: [number, number];
      try {
        reply = await redis.reserveAnswer(keys.length, ...keys, ...answerSpacing, budget.maxWaitMs, KEY_KEPT_PAST_MS);
      } catch (err) {
        unreachable(err);
        return local.answer(botId, chatId, call);
      }
      const [wait, dropped] = reply;
      if (dropped === 1) throw new AnswerDropped(`the answer would wait ${wait} ms for its turn`);
      await waitFor(wait);
      return call();
    },
  };
}
