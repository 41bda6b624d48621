import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { loadConfig } from '../src/server/config.ts';
import { recordEvent } from '../src/server/core/events/record-event.ts';
import { systemClock } from '../src/server/core/ports.ts';
import { createGateway } from '../src/server/gateway.ts';
import { startWebhookReceiver } from '../src/server/testing/webhook-receiver.ts';
const N = Number(process.env.N ?? 1000);
const r = await startWebhookReceiver();
const dataDir = await mkdtemp(join(tmpdir(), 'gw-diag-'));
const config = loadConfig({ ...process.env, DATA_DIR: dataDir, PARTNER_API_KEY: randomBytes(24).toString('base64url'), LOG_LEVEL: 'silent', WEBHOOK_ALLOW_LOOPBACK: 'true' });
const g = await createGateway(config, { logger: false, widgetDir: null, webhooks: { concurrency: 16, perEndpoint: 16 } });
const partner = { authorization: `Bearer ${g.partnerKey.value}` };
const account = (await g.app.inject({ method: 'POST', url: '/v2/accounts', headers: partner, payload: { name: 'B' } })).json().data;
const issued = (await g.app.inject({ method: 'POST', url: `/v2/accounts/${account.account_id}/tokens`, headers: partner, payload: { kind: 'client' } })).json().data;
await g.app.inject({ method: 'POST', url: '/v2/webhooks', headers: { authorization: `Bearer ${issued.token}` }, payload: { data: [{ url: r.url, event: 'message.add' }] } });
const t0 = performance.now();
for (let from = 0; from < N; from += 50) {
  await g.store.transaction(async (tx) => {
    for (let n = from; n < Math.min(from + 50, N); n++) await recordEvent(tx, systemClock, { accountId: account.account_id, name: 'message.add', orderingKey: `chat:${n % 100}`, payload: { n } });
  });
}
console.log('recorded', (performance.now() - t0).toFixed(0), 'ms');
for (;;) {
  const { rows } = await sql<{ u: number; d: number; p: number; s: number }>`select (select count(*)::int from events where dispatched_at is null) u, (select count(*)::int from webhook_deliveries where status='delivered') d, (select count(*)::int from webhook_deliveries where status='pending') p, (select count(*)::int from webhook_deliveries where status='sending') s`.execute(g.database.db);
  console.log((performance.now() - t0).toFixed(0), 'ms', JSON.stringify(rows[0]), 'received', r.requests.length);
  if (rows[0]!.d >= N) break;
  await new Promise((res) => setTimeout(res, 250));
}
console.log((globalThis as any).T); await g.stop(); await r.close();
