/**
 * The footprint bench's loaded readings of a gateway (on PGlite or PostgreSQL): its resident memory once 1,000 messages were
 * accepted and sent, and once it exported N messages to CSV. The messages to export are written straight into
 * the stopped gateway's database (as bench/export-memory.ts does), and the gateway started again on it.
 */
import autocannon from 'autocannon';
import { insertChat, insertSyntheticMessages } from '../../src/server/testing/message-rows.ts';
import { callOrThrow } from './calls.ts';
import type { BenchGateway } from './gateway-process.ts';
import { sendRequests } from './send-requests.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Accepts `count` messages over 100 chats, and gives the gateway time to send them. */
export async function sendMessages(bench: BenchGateway, count: number): Promise<void> {
  const result = await autocannon({
    url: `${bench.baseURL}/v2/messages`,
    connections: 8,
    amount: count,
    method: 'POST',
    requests: sendRequests(bench.channelId, bench.tokens, 100, 'footprint'),
  });
  if (result['2xx'] !== count) throw new Error(`${count - result['2xx']} of ${count} sends were not accepted`);
  // The sandbox answers at once: a few seconds later all are sent (the caller checks, once the gateway stopped).
  await sleep(5_000);
}

/**
 * Stops the gateway, writes `count` messages of its account over 200 chats into its database, starts it again
 * and exports them all; answers once the export is done, with its duration.
 */
export async function exportMessages(bench: BenchGateway, count: number): Promise<{ seconds: number; unsentBefore: number }> {
  await bench.stop();
  // The messages sent before: checked now, as the embedded database is read only once the gateway let it go.
  const unsentBefore = await bench.unsent();
  const start = new Date('2030-01-01T00:00:00Z');
  await bench.inspect(async (db) => {
    const chats: string[] = [];
    for (let i = 0; i < 200; i++) {
      chats.push(await insertChat(db, { accountId: bench.accountId, channelId: bench.channelId, chatType: 'whatsapp', chatId: `7901${String(i).padStart(7, '0')}`, name: `Client ${i}` }));
    }
    for (let done = 0; done < count; done += 100_000) {
      const batch = Math.min(100_000, count - done);
      await insertSyntheticMessages(db, { accountId: bench.accountId, channelId: bench.channelId, chats, count: batch, start: new Date(start.getTime() + done * 1000), stepMs: 1000 });
    }
  });
  await bench.restart();
  const began = performance.now();
  const token = bench.tokens[0]!;
  const end = new Date(start.getTime() + count * 1000 + 1);
  const { export_id: exportId } = await callOrThrow<{ export_id: string }>(bench.baseURL, 'POST', '/v2/messages/messages_dump', token, {
    start_at: start.toISOString(),
    end_at: end.toISOString(),
  });
  for (;;) {
    await sleep(250);
    const task = await callOrThrow<{ status: string }>(bench.baseURL, 'GET', `/v2/messages/messages_dump/${exportId}`, token);
    if (task.status === 'done') return { seconds: (performance.now() - began) / 1000, unsentBefore };
    if (task.status === 'failed') throw new Error('the bench export failed');
  }
}
