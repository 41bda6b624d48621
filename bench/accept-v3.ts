/**
 * The v3 face's send against the v2 face's, in one run on one gateway: `POST /v3/message` and `POST /v2/messages`
 * requests/s under autocannon (sandbox transport, an active whatsapp channel, sends spread over BENCH_CHATS chats),
 * alternating runs of each; medians of the rate accepted during load, and the median of each run's v3 ÷ v2 ratio. Both faces call the same use-case, so the
 * v3 rate should stay within 10 % of the v2 rate (the budget).
 *
 *   node bench/accept-v3.ts
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node bench/accept-v3.ts
 *   BENCH_RUNS=5 BENCH_SECONDS=10 BENCH_CONNECTIONS=32 BENCH_CHATS=100 node bench/accept-v3.ts
 */
import autocannon, { type Request } from 'autocannon';
import { benchChatId, startBenchGateway } from './lib/gateway-process.ts';
import { databaseName, median, reportRows, type BenchRow } from './lib/report.ts';
import { sendRequests } from './lib/send-requests.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const CHATS = Number(process.env.BENCH_CHATS ?? 100);
const TOKENS = Number(process.env.BENCH_TOKENS ?? 120);
/** The v3 rate may be at most this much below the v2 rate. */
const TOLERANCE = 0.1;

/** The same sends as `sendRequests`, in the v3 body. */
function v3SendRequests(channelId: string, tokens: string[], chats: number): Request[] {
  let n = 0;
  return [
    {
      setupRequest: (req) => {
        const i = n++;
        return {
          ...req,
          headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[i % tokens.length]}` },
          body: JSON.stringify({ channelId, chatType: 'whatsapp', chatId: benchChatId(i % chats), text: `bench message ${i}` }),
        };
      },
    },
  ];
}

interface Run {
  rps: number;
  p50: number;
  p99: number;
  failures: number;
}

async function load(url: string, requests: Request[], seconds: number): Promise<Run> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds, method: 'POST', requests });
  return { rps: result['2xx'] / result.duration, p50: result.latency.p50, p99: result.latency.p99, failures: result.non2xx + result.errors + result.timeouts };
}

const fmt = (r: Run) => `${r.rps.toFixed(0).padStart(6)} req/s  p50 ${r.p50.toFixed(1).padStart(5)} ms  p99 ${r.p99.toFixed(1).padStart(6)} ms${r.failures ? `  (${r.failures} failed)` : ''}`;

async function main() {
  const database = databaseName(process.env.DATABASE_URL);
  const gateway = await startBenchGateway({ tokens: TOKENS });
  try {
    console.log(`v3 accept benchmark: ${RUNS} runs × ${SECONDS} s per face, ${CONNECTIONS} connections, ${CHATS} chats, ${database}, Node ${process.version}`);
    const v2 = () => load(`${gateway.baseURL}/v2/messages`, sendRequests(gateway.channelId, gateway.tokens, CHATS), SECONDS);
    const v3 = () => load(`${gateway.baseURL}/v3/message`, v3SendRequests(gateway.channelId, gateway.tokens, CHATS), SECONDS);
    // Warm both paths first.
    await load(`${gateway.baseURL}/v2/messages`, sendRequests(gateway.channelId, gateway.tokens, CHATS), 2);
    await load(`${gateway.baseURL}/v3/message`, v3SendRequests(gateway.channelId, gateway.tokens, CHATS), 2);
    const ours: Run[] = [];
    const base: Run[] = [];
    for (let run = 1; run <= RUNS; run++) {
      // Alternate which face goes first, so a backlog left by one run weighs on both alike.
      if (run % 2 === 1) {
        base.push(await v2());
        ours.push(await v3());
      } else {
        ours.push(await v3());
        base.push(await v2());
      }
      console.log(`  run ${run}: v3 ${fmt(ours.at(-1)!)}   v2 ${fmt(base.at(-1)!)}`);
    }
    const m = (runs: Run[], k: keyof Run) => median(runs.map((r) => r[k]));
    const rps = m(ours, 'rps');
    const v2Rps = m(base, 'rps');
    // Each run pairs the two faces back to back; on a shared machine the load drifts between runs, so the ratio is
    // the median of the runs' own ratios rather than the ratio of two medians taken at different times.
    const ratio = median(ours.map((r, i) => r.rps / base[i]!.rps));
    const met = ratio >= 1 - TOLERANCE && ours.every((r) => r.failures === 0);
    console.log(`medians: v3 ${rps.toFixed(0)} req/s p99 ${m(ours, 'p99').toFixed(1)} ms; v2 ${v2Rps.toFixed(0)} req/s p99 ${m(base, 'p99').toFixed(1)} ms; ratio ${ratio.toFixed(3)}`);
    console.log(`budget v3 ≥ ${((1 - TOLERANCE) * 100).toFixed(0)} % of v2: ${met ? 'met' : 'NOT met'}`);
    const row: BenchRow = {
      row: 'accept-v3',
      metric: 'POST /v3/message requests/s',
      unit: 'req/s',
      database,
      ours: Math.round(rps),
      baseline: Math.round(v2Rps),
      baselineName: 'POST /v2/messages, same gateway, same run',
      ratio,
      budget: `≥ ${((1 - TOLERANCE) * 100).toFixed(0)} % of the v2 send`,
      met,
      runs: RUNS,
      details: {
        p50_ms: m(ours, 'p50'),
        p99_ms: m(ours, 'p99'),
        v2_p50_ms: m(base, 'p50'),
        v2_p99_ms: m(base, 'p99'),
        connections: CONNECTIONS,
        chats: CHATS,
        seconds_per_run: SECONDS,
        failed_requests: ours.reduce((s, r) => s + r.failures, 0),
      },
    };
    await reportRows([row]);
  } finally {
    await gateway.stop().catch(() => {});
    await gateway.cleanup();
  }
}

await main();
