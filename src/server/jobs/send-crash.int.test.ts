import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseTarget } from '../storage/database.ts';
import { eventually } from '../testing/eventually.ts';
import { freePort } from '../testing/free-port.ts';
import { callJson, spawnGateway, type SpawnedGateway } from '../testing/spawned-gateway.ts';
import { createTestDatabase, databaseKind, type TestDatabase } from '../testing/test-database.ts';

const MESSAGES = 1_000;
const CHATS = 25;

/** Reads the gateway's database directly while no gateway runs (PGlite allows one process at a time). */
async function inspect<T>(target: DatabaseTarget, read: (db: Awaited<ReturnType<typeof openDatabase>>['db']) => Promise<T>): Promise<T> {
  const database = await openDatabase(target);
  try {
    return await read(database.db);
  } finally {
    await database.close();
  }
}

const finalCount = (db: Awaited<ReturnType<typeof openDatabase>>['db']) =>
  sql<{ n: number }>`select count(*)::int as n from messages where status in ('delivered', 'failed')`.execute(db).then((r) => r.rows[0]!.n);

/**
 * One database is enough for this test of the send path; PGlite can be inspected only by stopping the gateway,
 * which makes it slow, so it runs on PGlite only when no PostgreSQL run follows.
 */
const runHere = databaseKind() === 'postgres' || process.env.POSTGRES_SUITE !== '1';

describe.runIf(runHere)(`a crash while messages are being sent (${databaseKind()})`, () => {
  let testDb: TestDatabase;
  let dataDir: string;
  let gateway: SpawnedGateway | null = null;
  afterAll(async () => {
    await gateway?.kill();
    await testDb?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('ends every accepted request with exactly one final status, each received by the sandbox exactly once', async () => {
    testDb = await createTestDatabase();
    dataDir = await mkdtemp(join(tmpdir(), 'gw-crash-'));
    const target: DatabaseTarget = testDb.target.kind === 'postgres' ? testDb.target : { kind: 'pglite', dataDir };
    const databaseUrl = testDb.target.kind === 'postgres' ? testDb.target.url : undefined;
    const port = await freePort();
    // The network answers after 200 ms, so sends are in flight (received, not yet recorded) when the kill comes.
    const env = { SANDBOX_LATENCY_MS: '200' };
    gateway = await spawnGateway({ dataDir, databaseUrl, port, env });
    const { baseURL, partnerKey } = gateway;

    const account = await callJson<{ account_id: string }>(baseURL, 'POST', '/v2/accounts', partnerKey, { name: 'Crash' });
    const token = (await callJson<{ token: string }>(baseURL, 'POST', `/v2/accounts/${account.data.account_id}/tokens`, partnerKey, { kind: 'client' })).data.token;
    const channel = (await callJson<{ channel_id: string }[]>(baseURL, 'POST', '/v2/channels', token, { transport: 'whatsapp', credentials: {} })).data[0]!.channel_id;
    await callJson(baseURL, 'POST', `/v2/sandbox/channels/${channel}/scan`, token, {});
    await eventually(async () => ((await callJson<{ status: string }[]>(baseURL, 'GET', `/v2/channels/${channel}`, token)).data[0]!.status === 'active' ? true : undefined));

    // Accept 1,000 messages over 25 chats, 10 requests at a time, while the worker is already sending.
    const requestIds: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        while (next < MESSAGES) {
          const i = next++;
          const body = { channel_id: channel, recipient: { chat_type: 'whatsapp', chat_id: `7900200${String(i % CHATS).padStart(4, '0')}` }, text: `message ${i}` };
          let res = await callJson<{ request_id: string }>(baseURL, 'POST', '/v2/messages', token, body);
          // The rate limit (500 per 5 s) answers 429: wait for the window and send again, as a client should.
          while (res.status === 429) {
            await new Promise((r) => setTimeout(r, 250));
            res = await callJson<{ request_id: string }>(baseURL, 'POST', '/v2/messages', token, body);
          }
          expect(res.status).toBe(201);
          requestIds.push(res.data.request_id);
        }
      }),
    );
    await gateway.kill();
    gateway = null;

    const atCrash = await inspect(target, finalCount);
    console.info(`at SIGKILL: ${atCrash} of ${MESSAGES} messages had a final status`);
    expect(atCrash).toBeLessThan(MESSAGES); // the kill hit sending in progress

    // Restart and let the worker settle the rest. PGlite can be read only while no gateway holds it, so the
    // gateway is stopped cleanly to look, and started again while work remains.
    for (let round = 0; round < 8; round++) {
      gateway = await spawnGateway({ dataDir, databaseUrl, port, partnerKey, env });
      const deadline = Date.now() + 45_000;
      while (target.kind === 'postgres' && Date.now() < deadline && (await inspect(target, finalCount)) < MESSAGES) await new Promise((r) => setTimeout(r, 500));
      // Jobs the killed process held come back when their lease expires (20 s, found within 10 s more).
      if (target.kind === 'pglite') await new Promise((r) => setTimeout(r, 35_000));
      await gateway.stop();
      gateway = null;
      const done = await inspect(target, finalCount);
      console.info(`after restart ${round + 1}: ${done} of ${MESSAGES} final`);
      if (done === MESSAGES) break;
    }

    await inspect(target, async (db) => {
      expect(await finalCount(db)).toBe(MESSAGES);
      const perRequest = await sql<{ request_id: string; finals: number; sents: number; received: number }>`
        select m.request_id::text as request_id,
          (select count(*)::int from events e where e.name = 'message.status_update' and e.payload->>'request_id' = m.request_id::text
             and e.payload->>'status' in ('delivered', 'failed')) as finals,
          (select count(*)::int from events e where e.name = 'message.status_update' and e.payload->>'request_id' = m.request_id::text
             and e.payload->>'status' = 'sent') as sents,
          (select count(*)::int from sandbox_received r where r.request_id = m.request_id) as received
        from messages m where m.direction = 'outbound'`.execute(db);
      expect(perRequest.rows).toHaveLength(MESSAGES);
      expect(new Set(perRequest.rows.map((r) => r.request_id))).toEqual(new Set(requestIds));
      const wrong = perRequest.rows.filter((r) => r.finals !== 1 || r.sents !== 1 || r.received !== 1);
      expect(wrong).toEqual([]);
    });
  }, 240_000);
});
