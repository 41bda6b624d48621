/**
 * Memory and time of one message export on the embedded database (PGlite in a data directory, as `npm start`
 * runs it): bulk-inserts N messages, runs the export through the API and its job, and samples the process's
 * resident memory every 50 ms while the export runs.
 *
 *   npx node --expose-gc bench/export-memory.ts [messages=100000]
 *   DATABASE_URL=postgres://… npx node --expose-gc bench/export-memory.ts 1000000
 *
 * The budget checked for 1,000,000 messages: at most 60 s and 100 MB of growth over the baseline.
 * Baseline in the same run: the same number of rows generated in memory and written by the same CSV file
 * writer, no database and no job: the floor of what an export can cost.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/server/config.ts';
import { exportColumns } from '../src/contract/exports.ts';
import { createGateway } from '../src/server/gateway.ts';
import { exportFiles } from '../src/server/storage/export-files.ts';
import { insertChat, insertSyntheticMessages } from '../src/server/testing/message-rows.ts';
import { reportRows } from './lib/report.ts';

const count = Number(process.argv[2] ?? 100_000);
const budget = { seconds: 60, growthMb: 100 };
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
const gc = (globalThis as { gc?: () => void }).gc;

/** Time and RSS growth of writing `n` rows generated in memory through the export's own CSV writer. */
async function csvFloor(n: number): Promise<{ seconds: number; growthMb: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'gw-bench-csv-'));
  gc?.();
  const base = process.memoryUsage().rss;
  let top = base;
  const sampler = setInterval(() => (top = Math.max(top, process.memoryUsage().rss)), 50);
  const started = performance.now();
  const row = (i: number): Record<(typeof exportColumns)[number], string | null> => ({
    ...(Object.fromEntries(exportColumns.map((c) => [c, null])) as Record<(typeof exportColumns)[number], null>),
    message_id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    created_at: new Date(1_893_456_000_000 + i * 1000).toISOString(),
    channel_id: '6f1c3a52-3f0e-4a3b-9e5d-6a0f3b2c1d4e',
    transport: 'telegram',
    channel_name: 'Bench',
    chat_type: 'telegram',
    chat_id: String(1000 + (i % 200)),
    contact_name: `Клиент ${i % 200}`,
    direction: i % 2 ? 'inbound' : 'outbound',
    status: 'read',
    text: `Здравствуйте! Сообщение номер ${i} ${'x'.repeat(50)}`,
  });
  // Pages as the export reads them: 2,000 records, values in column order.
  async function* pages() {
    for (let from = 0; from < n; from += 2_000) {
      yield Array.from({ length: Math.min(2_000, n - from) }, (_, k) => {
        const r = row(from + k);
        return exportColumns.map((c) => r[c]);
      });
    }
  }
  await exportFiles(dir).write('floor', exportColumns, pages());
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  await rm(dir, { recursive: true, force: true });
  return { seconds, growthMb: mb(top - base) };
}

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

  const floor = await csvFloor(count);
  console.log(`baseline: ${count} in-memory rows through the same CSV writer in ${floor.seconds.toFixed(1)} s, RSS growth ${floor.growthMb} MB`);

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
  const database = config.databaseUrl ? 'PostgreSQL' : 'PGlite';
  const metric = `${count.toLocaleString('en')} messages to CSV`;
  await reportRows([
    { row: 'export', metric: `${metric}, seconds`, unit: 's', database, ours: Number(seconds.toFixed(1)), baseline: Number(floor.seconds.toFixed(1)), baselineName: 'same CSV writer, rows from memory', ratio: seconds / floor.seconds, budget: count >= 1_000_000 ? `≤ ${budget.seconds} s` : null, met: count >= 1_000_000 ? seconds <= budget.seconds : null, runs: 1, details: { csv_mb: mb(size) } },
    { row: 'export', metric: `${metric}, RSS growth`, unit: 'MB', database, ours: growth, baseline: floor.growthMb, baselineName: 'same CSV writer, rows from memory', ratio: floor.growthMb > 0 ? growth / floor.growthMb : null, budget: count >= 1_000_000 ? `≤ ${budget.growthMb} MB` : null, met: count >= 1_000_000 ? growth <= budget.growthMb : null, runs: 1, details: { rss_baseline_mb: mb(baseline), rss_peak_mb: mb(peak) } },
  ]);
  if (count >= 1_000_000) {
    const ok = seconds <= budget.seconds && growth <= budget.growthMb;
    console.log(`budget (≤ ${budget.seconds} s, ≤ ${budget.growthMb} MB growth): ${ok ? 'met' : 'NOT met'}`);
    if (!ok) process.exitCode = 1;
  }
} finally {
  await gateway.stop();
  await rm(dataDir, { recursive: true, force: true });
}
