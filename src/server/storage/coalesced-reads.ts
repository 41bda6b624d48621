import DataLoader from 'dataloader';
import type { Kysely } from 'kysely';
import type { Repositories } from '../core/ports.ts';
import { channelsByKey } from './repositories/channels.ts';
import { customersByKey, receiveManyOnce } from './repositories/sandbox.ts';
import { tokensById } from './repositories/tokens.ts';
import type { DatabaseSchema } from './schema.ts';

/** Larger batches than this go as several statements: parameter lists stay well below the protocol's limit. */
const MAX_BATCH = 500;

/**
 * One call per key, one statement per turn of the event loop: the calls made while the loop handles one round
 * of I/O (every request that arrived together) are answered by a single statement for all their keys. Nothing
 * is remembered between rounds, so every call sees what was committed before it was made, exactly as a
 * statement of its own would. (Within one callback's microtasks would be too narrow: each socket's request is
 * parsed in a callback of its own.)
 */
export function coalesce<K, V>(many: (keys: readonly K[]) => Promise<V[]>): (key: K) => Promise<V> {
  const loader = new DataLoader<K, V>(many, { cache: false, maxBatchSize: MAX_BATCH, batchScheduleFn: (run) => setImmediate(run) });
  return (key) => loader.load(key);
}

/**
 * The hot lookups outside transactions (every request's token and channel; the sandbox network's customer
 * check and receipt for every send), coalesced: under load, concurrent requests share their round trips
 * instead of each paying for one, which is what bounds the embedded database and the connection pool alike.
 */
export function coalesceHotReads(db: Kysely<DatabaseSchema>, repos: Repositories): Repositories {
  const token = coalesce((ids: readonly string[]) => tokensById(db, ids));
  const channel = coalesce((keys: readonly { accountId: string; id: string }[]) => channelsByKey(db, keys));
  const customer = coalesce((keys: readonly { channelId: string; chatType: string; chatId: string }[]) => customersByKey(db, keys));
  const receive = coalesce((deliveries: readonly Parameters<Repositories['sandbox']['receiveOnce']>[0][]) => receiveManyOnce(db, deliveries));
  return {
    ...repos,
    tokens: { ...repos.tokens, get: token },
    channels: { ...repos.channels, get: (accountId, id) => channel({ accountId, id }) },
    sandbox: { ...repos.sandbox, customer: (channelId, chatType, chatId) => customer({ channelId, chatType, chatId }), receiveOnce: receive },
  };
}
