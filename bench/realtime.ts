/**
 * Inbound message → event on a connected frame: a customer writes through the sandbox API, and the time until
 * a socket.io client of a global chat frame receives the `message.add` is measured, one message at a time.
 *
 *   npm run bench:realtime                 # 1,000 messages on the embedded PGlite
 *   BENCH_MESSAGES=200 TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:realtime
 */
import { performance } from 'node:perf_hooks';
import { channelClient } from '../src/server/testing/channel-client.ts';
import { frameClient } from '../src/server/testing/frame-client.ts';
import { openFrame } from '../src/server/testing/frames.ts';
import { startTestGateway } from '../src/server/testing/harness.ts';
import { activeChannel } from '../src/server/testing/messaging.ts';

const count = Number(process.env.BENCH_MESSAGES ?? 1000);
const warmup = Math.min(50, Math.floor(count / 10));

const t = await startTestGateway({ env: { PORT: '0' } });
try {
  const baseUrl = await t.gateway.listen();
  const account = await t.newAccount('bench');
  const channelId = await activeChannel(t, channelClient(t, account.token), 'telegram');
  const client = frameClient(baseUrl, await openFrame(t, account.token, 'chats', { user: { id: 'bench' }, scope: 'global' }));
  await client.connect();

  const arrivals = new Map<string, number>();
  client.socket.on('event', (event) => {
    if (event.name === 'message.add') arrivals.set(event.payload.message_id, performance.now());
  });

  const latencies: number[] = [];
  for (let i = 0; i < count + warmup; i++) {
    const started = performance.now();
    const res = await fetch(`${baseUrl}/v2/sandbox/channels/${channelId}/inbound`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ chat_type: 'telegram', username: `customer${i % 50}`, text: `message ${i}` }),
    });
    if (res.status !== 201) throw new Error(`inbound refused: ${res.status} ${await res.text()}`);
    const { message_id: messageId } = ((await res.json()) as { data: { message_id: string } }).data;
    await client.until(() => arrivals.has(messageId), `message ${i}`, 30_000);
    if (i >= warmup) latencies.push(arrivals.get(messageId)! - started);
  }
  client.close();

  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.ceil(q * latencies.length) - 1)]!.toFixed(1);
  const database = process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite';
  console.log(`inbound → socket event, ${latencies.length} messages (after ${warmup} warm-up), ${database}, one at a time`);
  console.log(`p50 ${at(0.5)} ms   p95 ${at(0.95)} ms   p99 ${at(0.99)} ms   max ${latencies.at(-1)!.toFixed(1)} ms`);
} finally {
  await t.close();
}
