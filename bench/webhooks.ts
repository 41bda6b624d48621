/**
 * Webhook delivery throughput: events recorded through the real path (event with its deliveries; then
 * claim, signed POST, settlement) to a local receiver in its own process, against a bare undici loop
 * POSTing the same bodies to the same receiver with the same concurrency. Several runs; medians and ratio.
 * The row's figure is the delivery pipeline alone: a backlog of events committed at once, timed from the
 * commit to the last event received. The same events recorded while delivering (transactions of 50, the
 * clock running from the first recording) are reported beside it, then the latency from recording to
 * arrival at a steady 100 events/s (p50, p99). One pass of the bare loop and of the drain goes first, unmeasured.
 * On PostgreSQL each run uses a new database (see `freshPostgres`).
 *
 *   npm run bench:webhooks                      # embedded PGlite in a temporary directory
 *   DATABASE_URL=postgres://… npm run bench:webhooks
 *   BENCH_EVENTS=20000 BENCH_RUNS=5 BENCH_CHATS=100 npm run bench:webhooks
 *   BENCH_RUN_LENGTH=0 npm run bench:webhooks   # one claim per delivery, to compare with runs (default 16)
 *   BENCH_WAITING=10000 npm run bench:webhooks  # a second endpoint that fails: that many lanes wait an hour for their retry
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { Agent, request } from 'undici';
import { loadConfig } from '../src/server/config.ts';
import { newEventRecords, recordEvent } from '../src/server/core/events/record-event.ts';
import { systemClock } from '../src/server/core/ports.ts';
import { createGateway, type Gateway } from '../src/server/gateway.ts';
import { startChildServer } from './lib/child.ts';
import { freshPostgres } from './lib/fresh-postgres.ts';
import { medianByPart, microsEach, startCpuMeter, type CpuEach } from './lib/cpu-time.ts';
import { databaseName, median, percentile, reportRows, type BenchRow } from './lib/report.ts';

// Enough that every series runs for a good part of a second or more: with 3,000, the bare loop was over in
// about 60 ms and its rate went from 22,000 to 64,000/s between runs; with 20,000 it holds within a few percent.
const EVENTS = Number(process.env.BENCH_EVENTS ?? 20_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const CHATS = Number(process.env.BENCH_CHATS ?? 100);
/** Lanes of a second endpoint (another subscription, another event) whose heads all wait an hour for a retry. */
const WAITING = Number(process.env.BENCH_WAITING ?? 0);
const CONCURRENCY = 16;
const PER_ENDPOINT = 16;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

interface Receiver {
  url: string;
  pid: number;
  counts(type?: 'counts' | 'reset'): Promise<{ requests: number; events: number }>;
  /** Milliseconds from `recorded_at` to arrival, per event that carried it. */
  latencies(): Promise<number[]>;
  stop(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const child = await startChildServer(new URL('./receiver.ts', import.meta.url));
  return {
    url: child.url,
    pid: child.child.pid!,
    counts: (type = 'counts') => child.ask(type),
    latencies: async () => (await child.ask<{ latencies: number[] }>('latencies')).latencies,
    stop: child.stop,
  };
}

const payload = (n: number) => ({
  message_id: `m-${n}`,
  channel_id: '6f1c3a52-3f0e-4a3b-9e5d-6a0f3b2c1d4e',
  direction: 'inbound',
  timestamp: 1_795_000_000_000 + n,
  status: 'sent',
  recipient: { chat_type: 'whatsapp', chat_id: `7900000${n % CHATS}` },
  text: 'Здравствуйте! Хочу уточнить статус заказа.',
});

/**
 * Each series starts as after a quiet spell on a maintained server: the earlier runs' dead rows vacuumed and the
 * statistics taken with nothing queued (autovacuum's usual moment; the test server here runs without it). Plans
 * made from such statistics must still serve the burst that follows.
 */
async function vacuumed(gateway: Gateway): Promise<void> {
  await sql`vacuum (analyze) webhook_deliveries, webhook_attempts, events`.execute(gateway.database.db);
}

/** Deliveries per second over the whole run, and how fast the recording alone went (it shares the process). */
async function oursOnce(gateway: Gateway, accountId: string, receiver: Receiver): Promise<{ rate: number; recording: number }> {
  await vacuumed(gateway);
  await receiver.counts('reset');
  const started = performance.now();
  // Recorded as state changes record them, in transactions of 50.
  for (let from = 0; from < EVENTS; from += 50) {
    await gateway.store.transaction(async (tx) => {
      for (let n = from; n < Math.min(from + 50, EVENTS); n++) {
        await recordEvent(tx, systemClock, { accountId, name: 'message.add', orderingKey: `chat:bench:${n % CHATS}`, payload: payload(n) });
      }
    });
  }
  const recording = EVENTS / ((performance.now() - started) / 1000);
  for (;;) {
    const { events } = await receiver.counts();
    if (events >= EVENTS) break;
    await sleep(5);
  }
  return { rate: EVENTS / ((performance.now() - started) / 1000), recording };
}

/**
 * Deliveries per second from a backlog: every event recorded in one transaction, the clock started at its
 * commit, stopped when the receiver has the last event. Only the delivery pipeline is timed, and its CPU:
 * this process (the gateway; with PGlite, its database too), the PostgreSQL server's and the receiver's.
 */
async function drainOnce(gateway: Gateway, accountId: string, receiver: Receiver): Promise<{ rate: number; cpu: CpuEach }> {
  await vacuumed(gateway);
  await receiver.counts('reset');
  let started = 0;
  let meter: Awaited<ReturnType<typeof startCpuMeter>> | undefined;
  const backlog = Array.from({ length: EVENTS }, (_, n) => ({ accountId, name: 'message.add', orderingKey: `chat:drain:${n % CHATS}`, payload: payload(n) }));
  await gateway.store.transaction(async (tx) => {
    for (let from = 0; from < EVENTS; from += 500) await tx.events.insert(newEventRecords(systemClock, backlog.slice(from, from + 500)));
    // The deliveries may start the moment this commits.
    meter = await startCpuMeter({ gateway: 'self', receiver: receiver.pid, ...(process.env.DATABASE_URL ? { postgres: 'postgres' as const } : {}) });
    started = performance.now();
  });
  for (;;) {
    const { events } = await receiver.counts();
    if (events >= EVENTS) break;
    await sleep(2);
  }
  const rate = EVENTS / ((performance.now() - started) / 1000);
  const used = await meter!.stop();
  return { rate, cpu: microsEach(used, EVENTS) };
}

/**
 * Latency at a steady 100 events/s, one event per transaction as a status change records it: from just
 * before the recording transaction to the POST's arrival at the receiver.
 */
async function latencyOnce(gateway: Gateway, accountId: string, receiver: Receiver, count = 300): Promise<number[]> {
  await receiver.counts('reset');
  const started = performance.now();
  for (let n = 0; n < count; n++) {
    const due = started + n * 10;
    if (due > performance.now()) await sleep(due - performance.now());
    const event = { accountId, name: 'message.add', orderingKey: `chat:latency:${n % CHATS}`, payload: { ...payload(n), recorded_at: Date.now() } };
    await gateway.store.transaction((tx) => recordEvent(tx, systemClock, event));
  }
  for (;;) {
    const { events } = await receiver.counts();
    if (events >= count) break;
    await sleep(5);
  }
  return receiver.latencies();
}

async function bareOnce(receiver: Receiver): Promise<{ rate: number; cpu: CpuEach }> {
  const agent = new Agent({ connections: CONCURRENCY });
  let next = 0;
  const meter = await startCpuMeter({ client: 'self', receiver: receiver.pid });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let n = next++; n < EVENTS; n = next++) {
        const body = JSON.stringify({ event: 'message.add', data: [payload(n)], meta: { idempotency_key: crypto.randomUUID(), timestamp: 0 } });
        const res = await request(receiver.url, { method: 'POST', dispatcher: agent, headers: { 'content-type': 'application/json' }, body });
        await res.body.dump();
      }
    }),
  );
  const rate = EVENTS / ((performance.now() - started) / 1000);
  const used = await meter.stop();
  await agent.close();
  return { rate, cpu: microsEach(used, EVENTS) };
}

/**
 * An endpoint that failed: WAITING lanes of `message.status_update` events to another URL, each head's retry an
 * hour away. They wait throughout the measured runs, and every claim passes the endpoint.
 */
async function queueWaiting(gateway: Gateway, client: Record<string, string>, url: string, accountId: string): Promise<void> {
  const failing = `${url}?failing`;
  await gateway.app.inject({ method: 'POST', url: '/v2/webhooks', headers: client, payload: { data: [{ url: failing, event: 'message.status_update' }] } });
  const waiting = Array.from({ length: WAITING }, (_, n) => ({ accountId, name: 'message.status_update', orderingKey: `chat:waiting:${n}`, payload: payload(n) }));
  for (let from = 0; from < WAITING; from += 500) {
    await gateway.store.transaction((tx) => tx.events.insert(newEventRecords(systemClock, waiting.slice(from, from + 500))));
  }
  const db = gateway.database.db;
  await sql`update webhook_deliveries set attempts = 1, next_attempt_at = now() + interval '1 hour' where event_name = 'message.status_update'`.execute(db);
}

async function main() {
  const receiver = await startReceiver();
  const dataDir = await mkdtemp(join(tmpdir(), 'gw-bench-'));
  const postgres = process.env.DATABASE_URL ? await freshPostgres(process.env.DATABASE_URL) : null;
  const config = loadConfig({
    ...process.env,
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    DATA_DIR: dataDir,
    PARTNER_API_KEY: randomBytes(24).toString('base64url'),
    LOG_LEVEL: 'silent',
    WEBHOOK_ALLOW_LOOPBACK: 'true',
  });
  const gateway = await createGateway(config, { logger: false, widgetDir: null, webhooks: { concurrency: CONCURRENCY, perEndpoint: PER_ENDPOINT, ...(process.env.BENCH_RUN_LENGTH ? { runLength: Number(process.env.BENCH_RUN_LENGTH) } : {}) } });
  try {
    const partner = { authorization: `Bearer ${gateway.partnerKey.value}` };
    const account = (await gateway.app.inject({ method: 'POST', url: '/v2/accounts', headers: partner, payload: { name: 'Bench' } })).json().data;
    const issued = (await gateway.app.inject({ method: 'POST', url: `/v2/accounts/${account.account_id}/tokens`, headers: partner, payload: { kind: 'client' } })).json().data;
    const client = { authorization: `Bearer ${issued.token}` };
    await gateway.app.inject({ method: 'POST', url: '/v2/webhooks', headers: client, payload: { data: [{ url: receiver.url, event: 'message.add' }] } });
    if (WAITING > 0) await queueWaiting(gateway, client, receiver.url, account.account_id);

    const database = databaseName(config.databaseUrl ?? undefined);
    console.log(`webhook benchmark: ${EVENTS} events over ${CHATS} chats${WAITING > 0 ? ` (and ${WAITING} lanes waiting at another endpoint)` : ''}, ${RUNS} runs, concurrency ${CONCURRENCY}, ${database}, Node ${process.version}`);
    type Series = 'gateway' | 'gateway, batching on' | 'gateway, recording included' | 'bare undici loop';
    const results: Record<Series, number[]> = { gateway: [], 'gateway, batching on': [], 'gateway, recording included': [], 'bare undici loop': [] };
    const recordings: number[] = [];
    const cpu: Record<'gateway' | 'gateway, batching on' | 'bare undici loop', CpuEach[]> = { gateway: [], 'gateway, batching on': [], 'bare undici loop': [] };
    const measured = (series: keyof typeof cpu, run: { rate: number; cpu: CpuEach }) => {
      cpu[series].push(run.cpu);
      results[series].push(run.rate);
    };
    const batching = (on: boolean) => gateway.app.inject({ method: 'PATCH', url: '/v2/webhooks/settings', headers: client, payload: { batching: on } });
    // One unmeasured pass of each, so that neither side's first measured run pays for its first compilation.
    await bareOnce(receiver);
    await batching(false);
    await drainOnce(gateway, account.account_id, receiver);
    for (let run = 1; run <= RUNS; run++) {
      await receiver.counts('reset');
      measured('bare undici loop', await bareOnce(receiver));
      await batching(false);
      measured('gateway', await drainOnce(gateway, account.account_id, receiver));
      await batching(true);
      measured('gateway, batching on', await drainOnce(gateway, account.account_id, receiver));
      await batching(false);
      const { rate, recording } = await oursOnce(gateway, account.account_id, receiver);
      results['gateway, recording included'].push(rate);
      recordings.push(recording);
      console.log(`  run ${run}: ${Object.entries(results).map(([k, v]) => `${k} ${v.at(-1)!.toFixed(0)}/s`).join(', ')}`);
    }
    const latencies = await latencyOnce(gateway, account.account_id, receiver);
    const p50 = percentile(latencies, 0.5);
    const p99 = percentile(latencies, 0.99);
    const bare = median(results['bare undici loop']);
    console.log('medians (deliveries per second):');
    for (const [name, rates] of Object.entries(results)) {
      console.log(`  ${name.padEnd(30)} ${median(rates).toFixed(0).padStart(7)}/s   ${(median(rates) / bare).toFixed(3)} of the bare loop`);
    }
    // Per part, the median over the runs of CPU microseconds per delivery (per request, for the bare loop).
    const cpuMedians = (series: keyof typeof cpu) => medianByPart(cpu[series]);
    for (const series of Object.keys(cpu) as (keyof typeof cpu)[]) {
      const parts = Object.entries(cpuMedians(series)).map(([part, us]) => `${part} ${us} µs`);
      console.log(`  CPU per ${series === 'bare undici loop' ? 'request' : 'delivery'}, ${series}: ${parts.join(', ')}`);
    }
    console.log(`  (recording alone went at ${median(recordings).toFixed(0)} events/s while delivering, in transactions of 50)`);
    console.log(`  recorded → POST arrived at 100 events/s, one per transaction: p50 ${p50} ms, p99 ${p99} ms (${latencies.length} events)`);
    const row = (metric: string, name: 'gateway' | 'gateway, batching on'): BenchRow => {
      const rates = results[name];
      const rate = median(rates);
      return {
        row: 'webhooks',
        metric,
        unit: 'deliveries/s',
        database,
        ours: rate,
        baseline: bare,
        baselineName: `bare undici loop, concurrency ${CONCURRENCY}`,
        ratio: rate / bare,
        budget: '≥ 2,000/s, ≥ 0.5 of bare',
        met: rate >= 2000 && rate / bare >= 0.5,
        runs: RUNS,
        details: {
          events: EVENTS,
          chats: CHATS,
          concurrency: CONCURRENCY,
          perEndpoint: PER_ENDPOINT,
          min: Math.min(...rates),
          max: Math.max(...rates),
          ...Object.fromEntries(Object.entries(cpuMedians(name)).map(([part, us]) => [`${part}_cpu_us_per_delivery`, us])),
          ...Object.fromEntries(Object.entries(cpuMedians('bare undici loop')).map(([part, us]) => [`bare_${part}_cpu_us_per_request`, us])),
          ...(name === 'gateway'
            ? {
                withRecordingPerSecond: Math.round(median(results['gateway, recording included'])),
                recordingPerSecond: Math.round(median(recordings)),
                latencyP50Ms: p50,
                latencyP99Ms: p99,
              }
            : {}),
        },
      };
    };
    await reportRows([
      row('webhook deliveries/s from a committed backlog, one event per POST', 'gateway'),
      row('webhook deliveries/s from a committed backlog, batching on (events/s)', 'gateway, batching on'),
    ]);
  } finally {
    await gateway.stop();
    await receiver.stop();
    await postgres?.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
