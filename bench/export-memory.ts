/**
 * Memory and time of one message export on the embedded database (PGlite in a data directory, as `npm start`
 * runs it): bulk-inserts N messages, runs the export through the API and its job, and samples the process's
 * resident memory every 50 ms while the export runs.
 *
 *   npx node --expose-gc bench/export-memory.ts [messages=100000]
 *   DATABASE_URL=postgres://… npx node --expose-gc bench/export-memory.ts 1000000
 *
 * The budget checked for 1,000,000 messages: at most 60 s and 100 MB of growth over the baseline.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/server/config.ts';
import { createGateway } from '../src/server/gateway.ts';
import { insertChat, insertSyntheticMessages } from '../src/server/testing/message-rows.ts';

const count = Number(process.argv[2] ?? 100_000);
const budget = { seconds: 60, growthMb: 100 };
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
const gc = (globalThis as { gc?: () => void }).gc;

const dataDir = await mkdtemp(join(tmpdir(), 'gw-bench-'));
const partnerKey = randomBytes(24).toString('base64url');
const config = loadConfig({ ...process.env, DATA_DIR: dataDir, PARTNER_API_KEY: partnerKey, LOG_LEVEL: 'silent' });
const gateway = await createGateway(config, { logger: false, widgetDir: null });

async function call(method: 'GET' | 'POST', url: string, token: string, body?: object) {
  const res = await gateway.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(body ? { payload: body } : {}) });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json().data;
}

try {
  const { account_id: accountId } = await call('POST', '/v2/accounts', partnerKey, { name: 'Bench' });
  const { token } = await call('POST', `/v2/accounts/${accountId}/tokens`, partnerKey, { kind: 'client' });
  const [{ channel_id: channelId }] = await call('POST', '/v2/channels', token, {
    transport: 'telegram',
    credentials: { telegram_token: `123456789:${'A'.repeat(35)}` },
  });
  const db = gateway.database.db;
  const chats: string[] = [];
  for (let i = 0; i < 200; i++) chats.push(await insertChat(db, { accountId, channelId, chatType: 'telegram', chatId: String(1000 + i), name: `Клиент ${i}` }));

  const start = new Date('2030-01-01T00:00:00Z');
  let inserted = Date.now();
  for (let done = 0; done < count; done += 100_000) {
    const batch = Math.min(100_000, count - done);
    await insertSyntheticMessages(db, { accountId, channelId, chats, count: batch, start: new Date(start.getTime() + done * 1000), stepMs: 1000 });
  }
  inserted = Date.now() - inserted;
  console.log(`inserted ${count} messages in ${(inserted / 1000).toFixed(1)} s (${config.databaseUrl ? 'PostgreSQL' : 'PGlite'})`);

  gc?.();
  await new Promise((r) => setTimeout(r, 500));
  gc?.();
  const before = process.memoryUsage();
  const baseline = before.rss;
  let peak = baseline;
  const peaks = { heapUsed: before.heapUsed, external: before.external, arrayBuffers: before.arrayBuffers };
  const sample = () => {
    const m = process.memoryUsage();
    peak = Math.max(peak, m.rss);
    for (const k of Object.keys(peaks) as (keyof typeof peaks)[]) peaks[k] = Math.max(peaks[k], m[k]);
  };
  const sampler = setInterval(sample, 50);
  const marks: string[] = [];

  const began = performance.now();
  const end = new Date(start.getTime() + count * 1000 + 1);
  const { export_id: exportId } = await call('POST', '/v2/messages/messages_dump', token, { start_at: start.toISOString(), end_at: end.toISOString() });
  let task: { status: string; url: string | null };
  do {
    await new Promise((r) => setTimeout(r, 100));
    task = await call('GET', `/v2/messages/messages_dump/${exportId}`, token);
    if (marks.at(-2) !== task.status) marks.push(task.status, `${((performance.now() - began) / 1000).toFixed(1)} s`);
  } while (task.status !== 'done');
  const seconds = (performance.now() - began) / 1000;
  clearInterval(sampler);
  sample();

  const row = await db.selectFrom('exports').select('row_count').where('id', '=', exportId).executeTakeFirstOrThrow();
  const size = (await stat(join(dataDir, 'exports', `${exportId}.csv`))).size;
  const growth = mb(peak - baseline);
  console.log(`exported ${row.row_count} rows (${mb(size)} MB of CSV) in ${seconds.toFixed(1)} s`);
  console.log(`status seen: ${marks.join(' ')}`);
  console.log(
    `heapUsed ${mb(before.heapUsed)} → peak ${mb(peaks.heapUsed)} MB, external ${mb(before.external)} → ${mb(peaks.external)} MB, ` +
      `arrayBuffers ${mb(before.arrayBuffers)} → ${mb(peaks.arrayBuffers)} MB`,
  );
  console.log(`rss: baseline ${mb(baseline)} MB, peak ${mb(peak)} MB, growth ${growth} MB${gc ? '' : ' (run with --expose-gc for a settled baseline)'}`);
  if (row.row_count !== count) throw new Error(`expected ${count} rows`);
  if (count >= 1_000_000) {
    const ok = seconds <= budget.seconds && growth <= budget.growthMb;
    console.log(`budget (≤ ${budget.seconds} s, ≤ ${budget.growthMb} MB growth): ${ok ? 'met' : 'NOT met'}`);
    if (!ok) process.exitCode = 1;
  }
} finally {
  await gateway.stop();
  await rm(dataDir, { recursive: true, force: true });
}
