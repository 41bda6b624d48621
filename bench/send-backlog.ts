/**
 * How fast the send loop works off a backlog spread over many chats (a broadcast accepted faster than it
 * leaves, or sends piled up while the gateway was down): BENCH_CHATS chats with BENCH_PER_CHAT accepted
 * messages each are written straight into a stopped gateway's database, then the gateway starts again and
 * sends them all. Reports messages sent per second, from when the gateway answers ready to the last one sent.
 * BENCH_WAITING more chats each hold a send whose retry is an hour away (a channel that cannot reach its
 * messenger): they wait throughout, and every claim passes them.
 * PostgreSQL only (the backlog is read while the gateway runs). Not a row of `npm run bench`: a diagnostic
 * to compare two versions of the claim.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node bench/send-backlog.ts
 *   BENCH_CHATS=20000 BENCH_PER_CHAT=1 BENCH_WAITING=0 …
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { startBenchGateway, benchChatId } from './lib/gateway-process.ts';
import { spawnGateway } from '../src/server/testing/spawned-gateway.ts';

const CHATS = Number(process.env.BENCH_CHATS ?? 20_000);
const PER_CHAT = Number(process.env.BENCH_PER_CHAT ?? 1);
const WAITING = Number(process.env.BENCH_WAITING ?? 0);

async function main() {
  if (!process.env.DATABASE_URL) throw new Error('set DATABASE_URL to a PostgreSQL server');
  const gateway = await startBenchGateway({ tokens: 1 });
  try {
    await gateway.stop();
    const total = await gateway.inspect(async (db) => {
      const chatIds = Array.from({ length: CHATS + WAITING }, (_, i) => benchChatId(i));
      await sql`
        insert into chats (id, account_id, channel_id, chat_type, chat_id, unanswered, last_message_at, created_at)
        select gen_random_uuid(), ${gateway.accountId}, ${gateway.channelId}, 'whatsapp', chat_id, 0, now(), now()
        from unnest(${chatIds}::text[]) as chat_id`.execute(db);
      // Round by round, so that the chats' messages are interleaved in acceptance order, as a broadcast's are.
      await sql`
        insert into messages (id, request_id, account_id, channel_id, chat_ref, direction, status, text, created_at)
        select gen_random_uuid(), gen_random_uuid(), c.account_id, c.channel_id, c.id, 'outbound', 'accepted', 'backlog ' || r, now()
        from generate_series(1, ${PER_CHAT}::int) r cross join chats c where c.chat_id <= ${benchChatId(CHATS - 1)} order by r, c.chat_id`.execute(db);
      await sql`
        insert into messages (id, request_id, account_id, channel_id, chat_ref, direction, status, text, created_at, send_after, send_attempts)
        select gen_random_uuid(), gen_random_uuid(), c.account_id, c.channel_id, c.id, 'outbound', 'accepted', 'waiting', now(), now() + interval '1 hour', 1
        from chats c where c.chat_id > ${benchChatId(CHATS - 1)}`.execute(db);
      return (await sql<{ n: number }>`select count(*)::int as n from messages where status = 'accepted'`.execute(db)).rows[0]!.n - WAITING;
    });
    const dataDir = await mkdtemp(join(tmpdir(), 'gw-backlog-'));
    const restarted = await spawnGateway({
      dataDir,
      databaseUrl: gateway.target.kind === 'postgres' ? gateway.target.url : undefined,
      partnerKey: gateway.process.partnerKey,
      env: { LOG_LEVEL: 'warn' },
    });
    const started = performance.now();
    try {
      // The loop may have sent some while the gateway finished starting.
      const unsent = async () => (await gateway.unsent()) - WAITING;
      const atReady = await unsent();
      let left = atReady;
      while (left > 0 && performance.now() - started < 600_000) {
        await new Promise((r) => setTimeout(r, 50));
        left = await unsent();
      }
      const seconds = (performance.now() - started) / 1000;
      const sent = atReady - left;
      console.log(
        `send-backlog: ${total} messages over ${CHATS} chats (${PER_CHAT} each), ${WAITING} chats waiting for a retry; ${total - atReady} sent before ready, ` +
          `${sent} in ${seconds.toFixed(1)} s after: ${Math.round(sent / seconds)} sent/s${left > 0 ? `, ${left} left at the time limit` : ''}`,
      );
    } finally {
      await restarted.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  } finally {
    await gateway.cleanup();
  }
}

await main();
