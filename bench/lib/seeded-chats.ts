/**
 * Chats with long histories for the widget benchmark, written straight into the bench gateway's database with
 * the test helpers that bulk-load messages (as the export benchmark does): ten thousand messages through the
 * sandbox API would take minutes and measure the send path, not the screen. PGlite serves one process at a
 * time, so the gateway is stopped for the writes and started again on the same data.
 */
import { sql } from 'kysely';
import { insertChat, insertSyntheticMessages } from '../../src/server/testing/message-rows.ts';
import { spawnGateway, type SpawnedGateway } from '../../src/server/testing/spawned-gateway.ts';
import type { BenchGateway } from './gateway-process.ts';

export interface ChatSeed {
  name: string;
  messages: number;
}

export interface SeededChat extends ChatSeed {
  chatRef: string;
  /** The id of the newest message, which the screen must show first. */
  newestId: string | null;
}

/** Writes the chats (the last one listed is the most recently active) and answers where the gateway now runs. */
export async function seedChats(bench: BenchGateway, seeds: ChatSeed[]): Promise<{ baseURL: string; chats: SeededChat[]; stop(): Promise<void> }> {
  const pglite = bench.target.kind === 'pglite';
  if (pglite) await bench.stop();
  const stepMs = 1_000;
  const end = Date.now() - 60_000;
  const chats = await bench.inspect(async (db) => {
    const out: SeededChat[] = [];
    for (const [i, seed] of seeds.entries()) {
      const chatRef = await insertChat(db, { accountId: bench.accountId, channelId: bench.channelId, chatId: `7900400${String(i).padStart(4, '0')}`, name: seed.name });
      // Each chat's newest message comes a minute after the previous chat's, so the list order is the seed order reversed.
      const last = new Date(end - (seeds.length - i) * 60_000);
      if (seed.messages > 0) {
        const start = new Date(last.getTime() - (seed.messages - 1) * stepMs);
        await insertSyntheticMessages(db, { accountId: bench.accountId, channelId: bench.channelId, chats: [chatRef], count: seed.messages, start, stepMs });
      }
      await db.updateTable('chats').set({ last_message_at: last }).where('id', '=', chatRef).execute();
      const { rows } = await sql<{ id: string }>`select id from messages where chat_ref = ${chatRef} order by seq desc limit 1`.execute(db);
      out.push({ ...seed, chatRef, newestId: rows[0]?.id ?? null });
    }
    return out;
  });
  if (!pglite) return { baseURL: bench.baseURL, chats, stop: () => bench.stop() };
  const restarted: SpawnedGateway = await spawnGateway({
    dataDir: (bench.target.kind === 'pglite' ? bench.target.dataDir : null) ?? '',
    partnerKey: bench.process.partnerKey,
    env: { LOG_LEVEL: 'warn' },
  });
  return { baseURL: restarted.baseURL, chats, stop: () => restarted.stop() };
}
