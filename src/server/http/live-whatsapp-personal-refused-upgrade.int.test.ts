import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startWhatsAppServer, type StartedWhatsAppServer } from '@openclaw/crabline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../testing/eventually.ts';
import { startLiveGateway, type TestGateway } from '../testing/harness.ts';
import { settled } from '../testing/messaging.ts';
import { createTestDatabase, databaseKind, type TestDatabase } from '../testing/test-database.ts';
import { upgradeRefusingRelay } from '../testing/upgrade-refusing-relay.ts';
import { seedLinkedWhatsAppChannel } from '../testing/whatsapp-linked-channel.ts';

const SECRET_KEY = 'k'.repeat(40);

/**
 * The real library (Baileys 7) whose first WebSocket upgrade is answered 503: the library then waits for good and
 * reports no close. The session's watchdog (its open bound shortened here) gives the attempt up and connects again,
 * through to the fake WhatsApp server, where a send is taken and acknowledged.
 */
describe(`a personal WhatsApp session whose WebSocket upgrade is answered 503 (${databaseKind()})`, () => {
  let server: StartedWhatsAppServer;
  let relay: Awaited<ReturnType<typeof upgradeRefusingRelay>>;
  let database: TestDatabase;
  let t: TestGateway;
  let token: string;
  const channelId = crypto.randomUUID();

  beforeAll(async () => {
    server = await startWhatsAppServer({ host: '127.0.0.1', port: 0, recorderPath: join(tmpdir(), `whatsapp-server-503-${process.pid}.jsonl`) });
    relay = await upgradeRefusingRelay(new URL(server.manifest.endpoints.baileysWebSocketUrl), 1);
    database = await createTestDatabase();
    ({ t } = await startLiveGateway(
      { SECRET_KEY, WHATSAPP_PERSONAL: 'on', WHATSAPP_WS_URL: relay.url },
      { database, whatsapp: { liveness: { openMs: 6_000, silenceMs: 25_000, unreachableMs: 15_000 }, backoff: { baseMs: 100, maxMs: 400 } } },
    ));
    let accountId: string;
    ({ token, accountId } = await t.newAccount());
    // A channel linked to the server's account, as a scan would have left it.
    await seedLinkedWhatsAppChannel(t.gateway.database.db, { channelId, accountId, selfJid: server.manifest.selfJid, secretKey: SECRET_KEY });
    await t.gateway.sessions!.tick();
  });
  afterAll(async () => {
    await t?.close();
    await relay?.close();
    await server?.close();
    await database?.drop();
  });

  it('gives up the refused attempt, connects again, and sends', async () => {
    await eventually(async () => (relay.connections() >= 2 ? true : undefined));
    // The customer's number is known to the account once they wrote (the fake server answers no number lookups).
    await eventually(async () => {
      const r = await fetch(server.manifest.endpoints.adminInboundUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-crabline-admin-token': server.manifest.adminToken },
        body: JSON.stringify({ chatJid: '15551234567@s.whatsapp.net', senderJid: '15551234567@s.whatsapp.net', text: 'are you there?' }),
      });
      return r.status === 200 ? r : undefined;
    });
    await eventually(async () => ((await t.gateway.database.db.selectFrom('messages').select('id').where('text', '=', 'are you there?').execute()).length > 0 ? true : undefined));
    const sent = await t.call('POST', '/v2/messages', { token, body: { channel_id: channelId, recipient: { chat_type: 'whatsapp', chat_id: '15551234567' }, text: 'yes, after a 503' } });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(await settled(t, sent.json().data.request_id, ['sent', 'failed'])).toMatchObject({ status: 'sent' });
  });
});
