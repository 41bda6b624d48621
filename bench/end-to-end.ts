/**
 * End to end: from `POST /v2/messages` leaving the client to the `message.status_update` with status `sent`
 * arriving at a webhook receiver, at a steady BENCH_RATE messages/s over BENCH_CHATS chats of the sandbox.
 * The gateway, the receiver and this load generator each run in a process of their own; times are epoch
 * milliseconds of one machine's clock. Several runs; medians of p50/p99, and where the time goes per stage
 * (from the gateway's own timestamps, read from its database after the runs).
 *
 *   node bench/end-to-end.ts                                   # embedded PGlite in a temporary directory
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node bench/end-to-end.ts
 *   BENCH_RUNS=3 BENCH_MESSAGES=1000 BENCH_RATE=100 BENCH_CHATS=100 node bench/end-to-end.ts
 */
import { sql } from 'kysely';
import { Agent, request } from 'undici';
import { startChildServer, type ChildServer } from './lib/child.ts';
import { benchChatId, startBenchGateway } from './lib/gateway-process.ts';
import { databaseName, median, percentile, reportRows } from './lib/report.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 1000);
const RATE = Number(process.env.BENCH_RATE ?? 100);
const CHATS = Number(process.env.BENCH_CHATS ?? 100);

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

interface Sent {
  requestId: string;
  startedAt: number;
  answeredAt: number;
}

async function runOnce(baseURL: string, channelId: string, tokens: string[], agent: Agent, offset: number): Promise<Sent[]> {
  const sent: Sent[] = [];
  const started = now();
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < MESSAGES; i++) {
    const due = started + (i * 1000) / RATE;
    const wait = due - now();
    if (wait > 1) await sleep(wait);
    const n = offset + i;
    inFlight.push(
      (async () => {
        const startedAt = now();
        const res = await request(`${baseURL}/v2/messages`, {
          method: 'POST',
          dispatcher: agent,
          headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[n % tokens.length]}` },
          body: JSON.stringify({ channel_id: channelId, recipient: { chat_type: 'whatsapp', chat_id: benchChatId(n % CHATS) }, text: `bench message ${n}` }),
        });
        const body = (await res.body.json()) as { data: { request_id: string } };
        if (res.statusCode !== 201) throw new Error(`send refused: ${res.statusCode} ${JSON.stringify(body)}`);
        sent.push({ requestId: body.data.request_id, startedAt, answeredAt: now() });
      })(),
    );
  }
  await Promise.all(inFlight);
  return sent;
}

const stats = (xs: number[]) => ({ p50: percentile(xs, 0.5), p99: percentile(xs, 0.99) });
const ms = (x: number) => `${x.toFixed(1)} ms`;

async function main() {
  const database = databaseName(process.env.DATABASE_URL);
  const receiver = await startChildServer(new URL('./lib/status-receiver.ts', import.meta.url));
  // 100 messages/s per token is the rate limit; a few tokens keep the load clear of it.
  const gateway = await startBenchGateway({ tokens: Math.max(2, Math.ceil((RATE * 2) / 100)) });
  const agent = new Agent({ connections: 64 });
  const all: (Sent & { arrivedAt: number })[] = [];
  const runs: { p50: number; p99: number }[] = [];
  try {
    await request(`${gateway.baseURL}/v2/webhooks`, {
      method: 'POST',
      dispatcher: agent,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${gateway.tokens[0]}` },
      body: JSON.stringify({ data: [{ url: receiver.url, event: 'message.status_update' }] }),
    }).then((r) => r.body.dump());
    console.log(`end-to-end benchmark: ${RUNS} runs of ${MESSAGES} messages at ${RATE}/s over ${CHATS} chats, ${database}, Node ${process.version}`);
    // Warm-up: one chat per bench chat, so every run sends to chats that already exist.
    const warm = await runOnce(gateway.baseURL, gateway.channelId, gateway.tokens, agent, 0).catch((err: unknown) => {
      throw err;
    });
    await waitFor(receiver, warm);
    await receiver.ask('reset');
    for (let run = 1; run <= RUNS; run++) {
      const sent = await runOnce(gateway.baseURL, gateway.channelId, gateway.tokens, agent, run * MESSAGES);
      const arrivals = await waitFor(receiver, sent);
      await receiver.ask('reset');
      const rows = sent.map((s) => ({ ...s, arrivedAt: arrivals[s.requestId]! }));
      all.push(...rows);
      const r = stats(rows.map((x) => x.arrivedAt - x.startedAt));
      runs.push(r);
      const accept = stats(rows.map((x) => x.answeredAt - x.startedAt));
      console.log(`  run ${run}: accepted → sent received p50 ${ms(r.p50)} p99 ${ms(r.p99)}   (POST → 201 p50 ${ms(accept.p50)} p99 ${ms(accept.p99)})`);
    }
  } finally {
    await agent.close();
    await receiver.stop();
    await gateway.stop();
  }
  try {
    const stages = await gateway.inspect(async (db) => {
      const { rows } = await sql<{ request_id: string; created_at: Date; received_at: Date; sent_at: Date }>`
        select m.request_id::text as request_id, m.created_at, r.received_at, m.sent_at
        from messages m join sandbox_received r on r.request_id = m.request_id
        where m.direction = 'outbound' and m.sent_at is not null`.execute(db);
      return new Map(rows.map((r) => [r.request_id, r]));
    });
    const per = {
      post_to_201: [] as number[],
      accepted_to_driver: [] as number[],
      driver_to_recorded: [] as number[],
      recorded_to_webhook: [] as number[],
    };
    for (const s of all) {
      const row = stages.get(s.requestId);
      if (!row) continue;
      per.post_to_201.push(s.answeredAt - s.startedAt);
      per.accepted_to_driver.push(row.received_at.getTime() - row.created_at.getTime());
      per.driver_to_recorded.push(row.sent_at.getTime() - row.received_at.getTime());
      per.recorded_to_webhook.push(s.arrivedAt - row.sent_at.getTime());
    }
    const p50 = median(runs.map((r) => r.p50));
    const p99 = median(runs.map((r) => r.p99));
    console.log(`medians over ${RUNS} runs: p50 ${ms(p50)}  p99 ${ms(p99)}   budget p50 ≤ 20 ms, p99 ≤ 100 ms: ${p50 <= 20 && p99 <= 100 ? 'met' : 'NOT met'}`);
    console.log('where the time goes (all runs, p50 / p99):');
    const labels: Record<keyof typeof per, string> = {
      post_to_201: 'POST → 201 (client)',
      accepted_to_driver: 'accepted → driver called (queue, worker wake-up, reads)',
      driver_to_recorded: 'driver called → outcome recorded',
      // The delivery is queued by the statement that records the outcome: next come its claim and its POST.
      recorded_to_webhook: 'outcome recorded → webhook received (commit, wake-up, claim, POST)',
    };
    const details: Record<string, number> = {};
    for (const [key, xs] of Object.entries(per) as [keyof typeof per, number[]][]) {
      const s = stats(xs);
      details[`${key}_p50_ms`] = s.p50;
      details[`${key}_p99_ms`] = s.p99;
      console.log(`  ${labels[key].padEnd(66)} ${ms(s.p50).padStart(10)} ${ms(s.p99).padStart(10)}`);
    }
    await reportRows([
      {
        row: 'end-to-end',
        metric: `accepted → message.status_update (sent) received, p50 at ${RATE} messages/s`,
        unit: 'ms',
        database,
        ours: p50,
        baseline: null,
        baselineName: null,
        ratio: null,
        budget: 'p50 ≤ 20 ms, p99 ≤ 100 ms',
        met: p50 <= 20 && p99 <= 100,
        runs: RUNS,
        details: { p99_ms: p99, rate_per_s: RATE, messages_per_run: MESSAGES, chats: CHATS, ...details },
      },
    ]);
  } finally {
    await gateway.cleanup();
  }
}

/** Waits until the receiver has every request's `sent` status (60 s at most). */
async function waitFor(receiver: ChildServer, sent: Sent[]): Promise<Record<string, number>> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { arrivals } = await receiver.ask<{ arrivals: Record<string, number> }>('arrivals');
    if (sent.every((s) => arrivals[s.requestId] !== undefined)) return arrivals;
    if (Date.now() > deadline) throw new Error(`only ${sent.filter((s) => arrivals[s.requestId] !== undefined).length} of ${sent.length} statuses arrived`);
    await sleep(100);
  }
}

await main();
