import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it, onTestFailed } from 'vitest';
import { eventually } from '../testing/eventually.ts';
import { callJson, spawnGateway, type SpawnedGateway } from '../testing/spawned-gateway.ts';
import { startTcpProxy, type TcpProxy } from '../testing/tcp-proxy.ts';
import { createTestDatabase, databaseKind, type TestDatabase } from '../testing/test-database.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../testing/webhook-receiver.ts';

const OUTAGE_MS = 10_000;

/** What the load saw: accepted request ids, and every other answer by status. */
interface LoadLog {
  accepted: string[];
  refused: { status: number; retryAfter: string | null; error: unknown }[];
  /** Requests that got no answer at all (a gateway that died would show here). */
  unanswered: number;
}

describe.runIf(databaseKind() === 'postgres')('PostgreSQL going away for 10 s under load', () => {
  let testDb: TestDatabase;
  let proxy: TcpProxy;
  let receiver: WebhookReceiver;
  let gateway: SpawnedGateway | null = null;
  let dataDir = '';
  afterAll(async () => {
    await gateway?.kill();
    await proxy?.close();
    await receiver?.close();
    await testDb?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps the process up, answers 503 while away, and settles every accepted message and event exactly once', { timeout: 180_000 }, async () => {
    testDb = await createTestDatabase();
    if (testDb.target.kind !== 'postgres') throw new Error('unreachable');
    const direct = testDb.target.url;
    const server = new URL(direct);
    proxy = await startTcpProxy({ host: server.hostname, port: Number(server.port || 5432) });
    receiver = await startWebhookReceiver();
    dataDir = await mkdtemp(join(tmpdir(), 'gw-outage-'));
    const gw = (gateway = await spawnGateway({ dataDir, databaseUrl: proxy.url(direct), env: { WEBHOOK_ALLOW_LOOPBACK: 'true' } }));
    const { baseURL, partnerKey } = gw;
    onTestFailed(() => console.error(`gateway output:\n${gw.output().slice(-6_000)}`));
    let exit: string | null = null;
    gw.child.once('exit', (code, signal) => (exit = `exited with ${code ?? signal}`));

    const account = (await callJson<{ account_id: string }>(baseURL, 'POST', '/v2/accounts', partnerKey, { name: 'Outage' })).data.account_id;
    const token = (await callJson<{ token: string }>(baseURL, 'POST', `/v2/accounts/${account}/tokens`, partnerKey, { kind: 'client' })).data.token;
    const channel = (await callJson<{ channel_id: string }[]>(baseURL, 'POST', '/v2/channels', token, { transport: 'whatsapp', credentials: {} })).data[0]!.channel_id;
    await callJson(baseURL, 'POST', `/v2/sandbox/channels/${channel}/scan`, token, {});
    await eventually(async () => ((await callJson<{ status: string }[]>(baseURL, 'GET', `/v2/channels/${channel}`, token)).data[0]!.status === 'active' ? true : undefined));
    expect((await callJson(baseURL, 'POST', '/v2/webhooks', token, { data: [{ url: receiver.url, event: 'message.status_update' }] })).status).toBeLessThan(300);

    // Readiness, watched all along.
    const readiness: { at: number; status: number | 'no answer' }[] = [];
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        const status = await fetch(`${baseURL}/readyz`, { signal: AbortSignal.timeout(4_000) }).then(
          async (r) => (await r.body?.cancel(), r.status),
          () => 'no answer' as const,
        );
        readiness.push({ at: performance.now(), status });
        await new Promise((r) => setTimeout(r, 100));
      }
    })();

    // A steady load of sends, two at a time, over six chats, until told to stop.
    const load: LoadLog = { accepted: [], refused: [], unanswered: 0 };
    let sending = true;
    let n = 0;
    const sender = async () => {
      while (sending) {
        const i = n++;
        const body = { channel_id: channel, recipient: { chat_type: 'whatsapp', chat_id: `7900300000${i % 6}` }, text: `message ${i}` };
        try {
          const res = await fetch(`${baseURL}/v2/messages`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify(body),
            signal: AbortSignal.timeout(15_000),
          });
          const json = (await res.json()) as { data?: { request_id: string }; error?: string; description?: string };
          if (res.status === 201) load.accepted.push(json.data!.request_id);
          else load.refused.push({ status: res.status, retryAfter: res.headers.get('retry-after'), error: json });
        } catch {
          load.unanswered++;
        }
        await new Promise((r) => setTimeout(r, 200));
      }
    };
    const senders = Promise.all([sender(), sender()]);

    await eventually(async () => (load.accepted.length >= 10 ? true : undefined));
    const acceptedBefore = load.accepted.length;
    const cutAt = performance.now();
    await proxy.cut();
    await eventually(async () => (readiness.some((r) => r.at > cutAt && r.status === 503) ? true : undefined));
    await new Promise((r) => setTimeout(r, OUTAGE_MS - (performance.now() - cutAt)));
    expect(exit).toBeNull();
    const restoredAt = performance.now();
    await proxy.restore();
    await eventually(async () => (readiness.some((r) => r.at > restoredAt && r.status === 200) ? true : undefined), 20_000);
    const readyAgainAt = readiness.find((r) => r.at > restoredAt && r.status === 200)!.at;
    const acceptedAtRecovery = load.accepted.length;
    await eventually(async () => (load.accepted.length >= acceptedAtRecovery + 10 ? true : undefined), 20_000);
    sending = false;
    await senders;

    // While away: readiness said so, requests were refused with 503 SERVICE_UNAVAILABLE and Retry-After.
    const away = readiness.filter((r) => r.at > cutAt && r.at < restoredAt);
    expect(away.filter((r) => r.status === 503).length).toBeGreaterThan(0);
    expect(away.filter((r) => r.status === 200)).toEqual([]);
    expect(load.unanswered).toBe(0);
    expect(load.refused.length).toBeGreaterThan(0);
    for (const r of load.refused) {
      expect(r).toMatchObject({ status: 503, error: { error: 'SERVICE_UNAVAILABLE' } });
      expect(Number(r.retryAfter)).toBeGreaterThan(0);
    }

    // Afterwards every accepted message ends with exactly one final status, received by the network once, and
    // every status event reaches the subscription exactly once.
    const db = new pg.Client({ connectionString: direct });
    await db.connect();
    try {
      const perRequest = async () =>
        (
          await db.query<{ request_id: string; finals: number; received: number }>(`
            select m.request_id::text as request_id,
              (select count(*)::int from events e where e.name = 'message.status_update' and e.payload->>'request_id' = m.request_id::text
                 and e.payload->>'status' in ('delivered', 'failed')) as finals,
              (select count(*)::int from sandbox_received r where r.request_id = m.request_id) as received
            from messages m where m.direction = 'outbound'`)
        ).rows;
      const rows = await eventually(async () => {
        const all = await perRequest();
        return all.length >= load.accepted.length && all.every((r) => r.finals >= 1) ? all : undefined;
      }, 60_000);
      const stored = new Set(rows.map((r) => r.request_id));
      expect(load.accepted.filter((id) => !stored.has(id))).toEqual([]);
      expect(rows.filter((r) => r.finals !== 1 || r.received !== 1)).toEqual([]);

      const eventIds = (await db.query<{ id: string }>(`select id::text from events where name = 'message.status_update'`)).rows.map((r) => r.id);
      await eventually(async () => {
        const delivered = new Set(receiver.requests.filter((q) => q.status === 200).map((q) => q.json.meta.idempotency_key));
        return eventIds.every((id) => delivered.has(id)) ? true : undefined;
      }, 60_000);
      const times = new Map<string, number>();
      for (const q of receiver.requests) times.set(q.json.meta.idempotency_key, (times.get(q.json.meta.idempotency_key) ?? 0) + 1);
      expect([...times].filter(([, count]) => count !== 1)).toEqual([]);
      expect(times.size).toBe(eventIds.length);

      const notReadyMs = Math.round(readyAgainAt - cutAt);
      console.info(
        `outage ${OUTAGE_MS} ms: /readyz 503 for ~${notReadyMs} ms, ready again ${Math.round(readyAgainAt - restoredAt)} ms after the database returned; ` +
          `${load.accepted.length} messages accepted (${acceptedBefore} before the cut), ${load.refused.length} answered 503, ${eventIds.length} events delivered once each`,
      );
    } finally {
      await db.end();
      watching = false;
      await watcher;
    }
    expect(exit).toBeNull();
    expect(gw.output()).not.toMatch(/second error|stopping after an unexpected error/);
  });
});
